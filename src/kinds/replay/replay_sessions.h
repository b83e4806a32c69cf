/*-------------------------------------------------------------------------
 *
 * replay_sessions.h
 *	  The sessions of a capture that one client of a replay serves, read
 *	  from the capture's views as the run's role (replay_sessions.c), for
 *	  the driver (replay_driver.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_REPLAY_SESSIONS_H
#define PB_REPLAY_SESSIONS_H

#include "postgres.h"

#include "pb_capture.h"
#include "replay.h"

/* One logged statement, as a client replays it */
typedef struct PbReplayStatement
{
	int64		at_us;			/* its start, from the capture's first */
	char	   *text;
	bool		extended;		/* of the extended protocol: params bound */
	int			nparams;
	char	  **params;			/* NULL for SQL NULL */
	Oid		   *param_types;	/* their types, 0 where not known; or NULL */
	char		sqlstate[6];	/* the error the log shows, "" for none */
	int			shape;			/* the capture's shape_no, 0 for none */
	PbSqlTxn	txn;			/* what it does to the transaction */
	bool		several;		/* a simple query of several statements */
} PbReplayStatement;

/* One logged session: its statements in the order it ran them */
typedef struct PbReplaySession
{
	int			session_no;
	char	   *role;			/* the logged role's name */
	Oid			role_oid;		/* and its OID here, InvalidOid if none */
	int			nstatements;
	PbReplayStatement *statements;
	int			next;			/* the next to run */
	double		max_lag_ms;		/* the most a statement started late */
} PbReplaySession;

/* What a capture is, as the caller and the clients read it */
typedef struct PbReplayCapture
{
	int64		first_at;		/* its first statement's start (TimestampTz) */
	int			sessions;
	int64		statements;
	int			shapes;
	bool		may_read;		/* its texts are the role's to read */
	bool		read_only;		/* its statements only read, as their texts say */
} PbReplayCapture;

/* replay_sessions.c */
extern bool pb_replay_capture_info(const char *nsp, int64 capture_id,
								   PbReplayCapture *info);
extern void pb_replay_check_roles(const char *nsp, int64 capture_id, Oid role,
								  bool as_logged);
extern PbReplaySession *pb_replay_load(const char *nsp, int64 capture_id,
									   const PbReplayCapture *info,
									   int nclients, int client_no,
									   MemoryContext cxt, int *nsessions);

#endif							/* PB_REPLAY_SESSIONS_H */
