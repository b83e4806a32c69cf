/*-------------------------------------------------------------------------
 *
 * settings_journal.c
 *	  The server settings a run has set with ALTER SYSTEM (fsync = off, ...)
 *	  and the values to put back, written durably before the change, so
 *	  that a crash or an immediate stop in the middle of the run does not
 *	  leave them changed for good.
 *
 * The journal is one file in the data directory, written (to a temporary
 * name, flushed, then renamed durably) before the first ALTER SYSTEM of a
 * run, and removed durably once the run has put its settings back.  It
 * names the process that wrote it and when that process started: while
 * that process lives, the settings are its run's; once it is gone without
 * removing the file (the server crashed, or was stopped in immediate mode,
 * or the process was killed), they are left over, and the next call of any
 * polarbench function, in any database, puts them back as the file says,
 * with a WARNING that says what it put back.  With polarbench in
 * shared_preload_libraries, a worker does so when the server starts.
 * Until they are put back, every polarbench call warns.
 *
 * Every polarbench function looks for a journal left over as it starts,
 * and some are called once per row of a view: the look must cost nothing
 * when there is nothing to put back.  A counter in shared memory is bumped
 * at every change of the file (written, made no live process's, removed);
 * a process that has looked and found nothing to do (no journal, or one
 * whose process lives) looks again only once the counter has moved.  A
 * journal's process that dies without removing it takes the server (and
 * the counter, and every process that read it) down with it; one that
 * exits otherwise makes its journal no live process's first, which moves
 * the counter.
 *
 * One run at a time changes server settings: the journal's existence is
 * the claim, taken under a cluster-wide lock.
 *
 * Putting back is done as the bootstrap superuser, whoever calls: the
 * values are those a superuser (or a role granted ALTER SYSTEM on them)
 * had, read from a file that only the server writes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "port/atomics.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lock.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/backend_status.h"
#include "utils/timestamp.h"

#include "alter_system.h"
#include "compat.h"
#include "settings_journal.h"

#define PB_JOURNAL_TEMP			PB_JOURNAL_FILE ".tmp"
#define PB_JOURNAL_HEADER		"polarbench server settings journal 1"

/* The key of the journal's lock (an advisory lock of no database) */
#define PB_JOURNAL_KEY1			0x50425244	/* "PBRD" */
#define PB_JOURNAL_KEY2			2

/* One parameter the run set */
typedef struct PbJournalEntry
{
	char	   *name;
	char	   *previous;		/* in postgresql.auto.conf before; NULL: none */
	char	   *value;			/* what the run set */
} PbJournalEntry;

/* What the file says */
typedef struct PbJournal
{
	int			pid;			/* of the process that wrote it */
	TimestampTz started;		/* when that process started */
	int			n;
	PbJournalEntry *entries;
} PbJournal;

static void pb_journal_write_as(int pid, TimestampTz started, int n,
								char *const *names, char *const *previous,
								char *const *values);
static bool pb_journal_recover_settled(void);

static LOCKTAG journal_tag;
static bool journal_locked = false;

/* What every process shares of the journal */
typedef struct PbJournalShared
{
	pg_atomic_uint64 changes;	/* bumped at every change of the file */
} PbJournalShared;

#define PB_JOURNAL_SHMEM_NAME	"polarbench settings journal"

static PbJournalShared *journal_shared = NULL;

/*
 * This process's last look for a journal left over: the counter it read
 * before it looked, whether the look found nothing to do, and, when it
 * warned instead, the statement it warned in (once per statement).
 */
static bool journal_looked = false;
static uint64 journal_looked_at = 0;
static bool journal_settled = false;
static TimestampTz journal_warned_in = 0;

/*
 * Hex digits of a string, so that any byte can stand in a line: a value of
 * any length and of any characters (quotes, backslashes, spaces, non-ASCII)
 * is one field of digits, and the empty string no digit at all.
 */
static void
pb_append_hex(StringInfo buf, const char *s)
{
	for (const unsigned char *p = (const unsigned char *) s; *p; p++)
		appendStringInfo(buf, "%02x", *p);
}

/* The value of one hex digit, or -1. */
static int
pb_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A string from its hex digits (none: the empty string); NULL if they are not. */
static char *
pb_from_hex(const char *hex)
{
	size_t		len = strlen(hex);
	char	   *s;

	if (len % 2 != 0)
		return NULL;
	s = palloc(len / 2 + 1);
	for (size_t i = 0; i < len / 2; i++)
	{
		int			high = pb_hex_digit(hex[2 * i]);
		int			low = pb_hex_digit(hex[2 * i + 1]);

		if (high < 0 || low < 0 || (high == 0 && low == 0))
			return NULL;
		s[i] = (char) (high * 16 + low);
	}
	s[len / 2] = '\0';
	return s;
}

/*
 * pb_journal_request_shmem
 *		With polarbench in shared_preload_libraries: reserve the journal's
 *		counter in shared memory (else it is taken from the spare space of
 *		the main segment when first used).
 */
void
pb_journal_request_shmem(void)
{
	RequestAddinShmemSpace(MAXALIGN(sizeof(PbJournalShared)));
}

/*
 * pb_journal_shared
 *		The journal's counter in shared memory, made when the first process
 *		of the server's life asks for it.
 */
static PbJournalShared *
pb_journal_shared(void)
{
	bool		found;

	if (journal_shared != NULL)
		return journal_shared;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	journal_shared = ShmemInitStruct(PB_JOURNAL_SHMEM_NAME,
									 sizeof(PbJournalShared), &found);
	if (!found)
		pg_atomic_init_u64(&journal_shared->changes, 1);
	LWLockRelease(AddinShmemInitLock);
	return journal_shared;
}

/* The file changed: every process looks again at its next call. */
static void
pb_journal_changed(void)
{
	(void) pg_atomic_fetch_add_u64(&pb_journal_shared()->changes, 1);
}

/*
 * pb_journal_unlink
 *		Remove the journal durably (failing at elevel), and say it changed.
 */
void
pb_journal_unlink(int elevel)
{
	(void) durable_unlink(PB_JOURNAL_FILE, elevel);
	pb_journal_changed();
}

/*
 * pb_journal_lock
 *		Take the journal's lock, until pb_journal_unlock() or the end of the
 *		(sub)transaction.
 */
void
pb_journal_lock(void)
{
	SET_LOCKTAG_ADVISORY(journal_tag, InvalidOid, PB_JOURNAL_KEY1,
						 PB_JOURNAL_KEY2, 2);
	(void) LockAcquire(&journal_tag, ExclusiveLock, false, false);
	journal_locked = true;
}

/* Let the journal's lock go, if an error has not already. */
void
pb_journal_unlock(void)
{
	if (journal_locked && PB_LOCK_HELD_BY_ME(&journal_tag, ExclusiveLock))
		(void) LockRelease(&journal_tag, ExclusiveLock, false);
	journal_locked = false;
}

/* What reading the journal found */
typedef enum PbJournalState
{
	PB_JOURNAL_NONE,			/* no journal */
	PB_JOURNAL_FOUND,
	PB_JOURNAL_UNREADABLE		/* a file that does not read as one */
} PbJournalState;

/*
 * The hint of a journal that cannot be read: what it is, and the way out.
 * The writer's journal always reads back; one that does not was changed
 * outside the server, and only someone who can look at the data directory
 * can say what to put back, so it is left there, and a run that would
 * change server settings is refused while it is.
 */
#define PB_JOURNAL_UNREADABLE_DETAIL \
	"It names the server settings a polarbench run changed and the values to put back; while it is there, no run may change server settings."
#define PB_JOURNAL_UNREADABLE_HINT \
	"Make postgresql.auto.conf give what it should with ALTER SYSTEM (the file's lines \"param\" give a parameter's name, earlier value and run's value in hexadecimal, \"-\" for none), then remove the file."

/*
 * pb_journal_read_line
 *		Read one line of the journal (after the first two) into e: "param",
 *		then the name, the previous value ("-": none) and the run's value, in
 *		hex, each after one space.  Returns whether it reads so.
 */
static bool
pb_journal_read_line(char *line, PbJournalEntry *e)
{
	char	   *fields[3];

	if (strncmp(line, "param ", 6) != 0)
		return false;
	fields[0] = line + 6;
	for (int i = 1; i < 3; i++)
	{
		char	   *space = strchr(fields[i - 1], ' ');

		if (space == NULL)
			return false;
		*space = '\0';
		fields[i] = space + 1;
	}
	if (strchr(fields[2], ' ') != NULL)
		return false;
	e->name = pb_from_hex(fields[0]);
	e->previous = strcmp(fields[1], "-") == 0 ? NULL : pb_from_hex(fields[1]);
	e->value = pb_from_hex(fields[2]);
	return e->name != NULL && e->name[0] != '\0' && e->value != NULL &&
		(e->previous != NULL || strcmp(fields[1], "-") == 0);
}

/*
 * pb_journal_read
 *		Read the journal into *j, whatever the length of its lines.  A file
 *		that cannot be read, or does not read as a journal, is reported at
 *		elevel with its path and the way out (it is not removed: someone
 *		must look at it).
 */
static PbJournalState
pb_journal_read(PbJournal *j, int elevel)
{
	FILE	   *file = AllocateFile(PB_JOURNAL_FILE, "r");
	StringInfoData contents;
	char		chunk[8192];
	size_t		nread;
	char	   *line;
	char	   *end;
	int			lineno = 0;
	int			capacity = 8;
	bool		ok;

	memset(j, 0, sizeof(PbJournal));
	if (file == NULL)
	{
		if (errno == ENOENT)
			return PB_JOURNAL_NONE;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not open polarbench server settings journal \"%s/%s\": %m",
						DataDir, PB_JOURNAL_FILE),
				 errdetail(PB_JOURNAL_UNREADABLE_DETAIL),
				 errhint(PB_JOURNAL_UNREADABLE_HINT)));
		return PB_JOURNAL_UNREADABLE;
	}
	initStringInfo(&contents);
	while ((nread = fread(chunk, 1, sizeof(chunk), file)) > 0)
		appendBinaryStringInfo(&contents, chunk, nread);
	if (ferror(file))
	{
		int			save_errno = errno;

		FreeFile(file);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not read polarbench server settings journal \"%s/%s\": %m",
						DataDir, PB_JOURNAL_FILE),
				 errdetail(PB_JOURNAL_UNREADABLE_DETAIL),
				 errhint(PB_JOURNAL_UNREADABLE_HINT)));
		return PB_JOURNAL_UNREADABLE;
	}
	FreeFile(file);

	/* every line ends with a newline: a file cut short is not a journal */
	ok = contents.len > 0 && contents.data[contents.len - 1] == '\n' &&
		memchr(contents.data, '\0', contents.len) == NULL;
	j->entries = palloc(sizeof(PbJournalEntry) * capacity);
	for (line = contents.data; ok && line < contents.data + contents.len; line = end + 1)
	{
		end = strchr(line, '\n');
		*end = '\0';
		lineno++;
		if (lineno == 1)
			ok = strcmp(line, PB_JOURNAL_HEADER) == 0;
		else if (lineno == 2)
		{
			long long	started;
			int			consumed = 0;

			ok = sscanf(line, "writer %d %lld%n", &j->pid, &started, &consumed) == 2 &&
				line[consumed] == '\0';
			j->started = (TimestampTz) started;
		}
		else
		{
			if (j->n == capacity)
			{
				capacity *= 2;
				j->entries = repalloc(j->entries, sizeof(PbJournalEntry) * capacity);
			}
			ok = pb_journal_read_line(line, &j->entries[j->n++]);
		}
	}
	if (ok && lineno >= 2)
		return PB_JOURNAL_FOUND;
	ereport(elevel,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("file \"%s/%s\" is not a polarbench server settings journal",
					DataDir, PB_JOURNAL_FILE),
			 errdetail(PB_JOURNAL_UNREADABLE_DETAIL),
			 errhint(PB_JOURNAL_UNREADABLE_HINT)));
	return PB_JOURNAL_UNREADABLE;
}

/*
 * pb_journal_writer_alive
 *		Whether the process that wrote the journal still runs: a process of
 *		that pid that started when it did.
 */
static bool
pb_journal_writer_alive(const PbJournal *j)
{
	int			nbackends;

	if (j->pid == MyProcPid && j->started == MyStartTimestamp)
		return true;
	pgstat_clear_backend_activity_snapshot();
	nbackends = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= nbackends; i++)
	{
		LocalPgBackendStatus *local = pgstat_fetch_stat_local_beentry(i);

		if (local != NULL && local->backendStatus.st_procpid == j->pid)
			return local->backendStatus.st_proc_start_timestamp == j->started;
	}
	return false;
}

/*
 * pb_journal_held_by_other
 *		Whether the journal is another live process's (its pid in *pid):
 *		then that process's run has server settings in place.  A journal
 *		that cannot be read is an error.
 */
static bool
pb_journal_held_by_other(int *pid)
{
	PbJournal	j;

	if (pb_journal_read(&j, ERROR) == PB_JOURNAL_NONE)
		return false;
	*pid = j.pid;
	return pb_journal_writer_alive(&j) && j.pid != MyProcPid;
}

/*
 * pb_journal_write
 *		Write the journal of this process's run, durably: the n parameters
 *		it is about to set to values, and their previous values in
 *		postgresql.auto.conf (NULL: none).  Under the journal's lock, with no
 *		journal of another's in place.
 */
void
pb_journal_write(int n, char *const *names, char *const *previous,
				 char *const *values)
{
	pb_journal_write_as(MyProcPid, MyStartTimestamp, n, names, previous, values);
}

/* pb_journal_write() as the process of that pid and start. */
static void
pb_journal_write_as(int pid, TimestampTz started, int n, char *const *names,
					char *const *previous, char *const *values)
{
	StringInfoData buf;
	int			fd;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%s\nwriter %d " INT64_FORMAT "\n", PB_JOURNAL_HEADER,
					 pid, (int64) started);
	for (int i = 0; i < n; i++)
	{
		appendStringInfoString(&buf, "param ");
		pb_append_hex(&buf, names[i]);
		appendStringInfoChar(&buf, ' ');
		if (previous[i] == NULL)
			appendStringInfoChar(&buf, '-');
		else
			pb_append_hex(&buf, previous[i]);
		appendStringInfoChar(&buf, ' ');
		pb_append_hex(&buf, values[i]);
		appendStringInfoChar(&buf, '\n');
	}

	fd = OpenTransientFile(PB_JOURNAL_TEMP, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", PB_JOURNAL_TEMP)));
	errno = 0;
	if (write(fd, buf.data, buf.len) != buf.len)
	{
		int			save_errno = errno;

		CloseTransientFile(fd);
		(void) unlink(PB_JOURNAL_TEMP);
		errno = save_errno ? save_errno : ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", PB_JOURNAL_TEMP)));
	}
	if (pg_fsync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", PB_JOURNAL_TEMP)));
	if (CloseTransientFile(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", PB_JOURNAL_TEMP)));
	(void) durable_rename(PB_JOURNAL_TEMP, PB_JOURNAL_FILE, ERROR);
	pb_journal_changed();
}

/*
 * pb_journal_remove
 *		Remove this process's journal durably, once its run's settings are
 *		back as they were.
 */
void
pb_journal_remove(void)
{
	PbJournal	j;

	if (pb_journal_read(&j, WARNING) == PB_JOURNAL_FOUND && j.pid == MyProcPid &&
		j.started == MyStartTimestamp)
		pb_journal_unlink(ERROR);
}

/* The longest part of a value that a message shows */
#define PB_JOURNAL_SHOWN_BYTES	64

/*
 * pb_journal_shown
 *		A value as a message shows it: whole, or its first bytes and its
 *		length when it is long (a value may be of any length).
 */
static char *
pb_journal_shown(const char *value)
{
	int			len = strlen(value);
	int			shown;

	if (len <= PB_JOURNAL_SHOWN_BYTES)
		return pstrdup(value);
	shown = pg_mbcliplen(value, len, PB_JOURNAL_SHOWN_BYTES);
	return psprintf("%.*s... (%d bytes)", shown, value, len);
}

/*
 * pb_journal_restore
 *		Put back what a journal names, as the bootstrap superuser, latest
 *		first; say in *said what was put back, and in *failed what could
 *		not be (with why).  Returns whether all was.
 */
static bool
pb_journal_restore(const PbJournal *j, StringInfo said, StringInfo failed)
{
	Oid			save_user;
	int			save_sec;
	bool		ok = true;

	GetUserIdAndSecContext(&save_user, &save_sec);
	for (int i = j->n - 1; i >= 0; i--)
	{
		const PbJournalEntry *e = &j->entries[i];
		char	   *error;
		bool		done;

		SetUserIdAndSecContext(BOOTSTRAP_SUPERUSERID,
							   save_sec | SECURITY_LOCAL_USERID_CHANGE);
		done = pb_alter_system_try(e->name, e->previous, &error);
		SetUserIdAndSecContext(save_user, save_sec);
		if (!done)
		{
			ok = false;
			appendStringInfo(failed, "%s%s (%s)", failed->len ? "; " : "",
							 e->name, error);
		}
		else if (e->previous != NULL)
			appendStringInfo(said, "%s%s = '%s' (the run had set '%s')",
							 said->len ? ", " : "", e->name,
							 pb_journal_shown(e->previous),
							 pb_journal_shown(e->value));
		else
			appendStringInfo(said, "%s%s reset (the run had set '%s')",
							 said->len ? ", " : "", e->name,
							 pb_journal_shown(e->value));
	}
	return ok;
}

/*
 * pb_journal_recover_locked
 *		pb_journal_recover_now() with the journal's lock held; a journal of
 *		this process's own is left over too when mine_too; one that cannot
 *		be read is reported at elevel.  Returns whether
 *		there is nothing left to do (no journal now, or one whose process
 *		lives), rather than a warning that something is still in place.
 */
static bool
pb_journal_recover_locked(bool mine_too, int elevel)
{
	PbJournal	j;
	StringInfoData said;
	StringInfoData failed;
	PbJournalState state;

	state = pb_journal_read(&j, elevel);
	if (state == PB_JOURNAL_NONE)
		return true;
	if (state == PB_JOURNAL_UNREADABLE)
		return false;
	if (pb_journal_writer_alive(&j) &&
		!(mine_too && j.pid == MyProcPid && j.started == MyStartTimestamp))
		return true;
	initStringInfo(&said);
	initStringInfo(&failed);
	if (!pb_journal_restore(&j, &said, &failed))
	{
		ereport(WARNING,
				(errmsg("server settings of an interrupted polarbench run are still in place"),
				 errdetail("Put back: %s.  Could not put back: %s.",
						   said.len ? said.data : "none", failed.data),
				 errhint("Put them back with ALTER SYSTEM and SELECT pg_reload_conf(); file \"%s/%s\" names them, and the next polarbench call tries again while it is there.",
						 DataDir, PB_JOURNAL_FILE)));
		return false;
	}
	pb_journal_unlink(ERROR);
	if (!pb_reload_signal())
		ereport(WARNING,
				(errmsg("could not send a reload signal to the postmaster: %m")));
	ereport(WARNING,
			(errmsg("server settings of an interrupted polarbench run were put back"),
			 errdetail("%s.", said.data),
			 errhint("The run that had set them ended without putting them back: the server crashed or was stopped, or its process was killed.")));
	return true;
}

/*
 * pb_journal_recover_now
 *		If a run's journal is left over (its process is gone), put back what
 *		it names, remove it and have the configuration reloaded, with a
 *		WARNING saying what was put back; if that cannot be done, a WARNING
 *		saying what is still in place.  In a transaction.
 */
void
pb_journal_recover_now(void)
{
	(void) pb_journal_recover_settled();
}

/*
 * pb_journal_recover_settled
 *		pb_journal_recover_now(); returns whether it left nothing to do (no
 *		journal, or one whose process lives) rather than warned.
 */
static bool
pb_journal_recover_settled(void)
{
	bool		settled;

	pb_journal_lock();
	settled = pb_journal_recover_locked(false, WARNING);
	pb_journal_unlock();
	return settled;
}

/*
 * pb_journal_free_locked
 *		With the journal's lock held: put back what a journal left over names
 *		(one of this process's own too when mine_too: its run is over), then
 *		refuse if that could not be done, if the journal cannot be read, or
 *		if another process's run has server settings in place.
 */
static void
pb_journal_free_locked(bool mine_too)
{
	int			pid;

	if (!pb_journal_recover_locked(mine_too, ERROR))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("server settings of an interrupted polarbench run are still in place"),
				 errhint("Put them back with ALTER SYSTEM, then remove file \"%s/%s\", which names them.",
						 DataDir, PB_JOURNAL_FILE)));
	if (pb_journal_held_by_other(&pid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("server settings of another polarbench run are in place"),
				 errdetail("The run of process %d has set server settings, which it puts back when it ends.", pid),
				 errhint("Run with server settings once that run is over.")));
}

/*
 * pb_journal_check_free
 *		Before a run of this process is started with server settings: what
 *		pb_journal_claim() will refuse, refused before anything starts.
 */
void
pb_journal_check_free(void)
{
	pb_journal_lock();
	pb_journal_free_locked(false);
	pb_journal_unlock();
}

/*
 * pb_journal_claim
 *		Before a run of this process sets server settings: under the
 *		journal's lock (held on return, for pb_journal_write()),
 *		pb_journal_check_free(), a journal of this process's own taken as
 *		left over (its run is over).
 */
void
pb_journal_claim(void)
{
	pb_journal_lock();
	pb_journal_free_locked(true);
}

/*
 * pb_journal_orphan
 *		This process's journal is no longer its run's: write it again as no
 *		live process's, so that the next polarbench call of any session puts
 *		back what it names (used before putting them back on the way out of
 *		an error, should that fail part of the way).
 */
void
pb_journal_orphan(void)
{
	PbJournal	j;
	char	  **names;
	char	  **previous;
	char	  **values;

	if (pb_journal_read(&j, WARNING) != PB_JOURNAL_FOUND ||
		j.pid != MyProcPid || j.started != MyStartTimestamp)
		return;
	names = palloc(sizeof(char *) * Max(j.n, 1));
	previous = palloc(sizeof(char *) * Max(j.n, 1));
	values = palloc(sizeof(char *) * Max(j.n, 1));
	for (int i = 0; i < j.n; i++)
	{
		names[i] = j.entries[i].name;
		previous[i] = j.entries[i].previous;
		values[i] = j.entries[i].value;
	}
	pb_journal_write_as(0, 0, j.n, names, previous, values);
}

/*
 * pb_journal_recover
 *		At the start of every polarbench function: pb_journal_recover_now(),
 *		unless nothing has changed since this process last looked and found
 *		nothing to do; one read of a shared counter then, as some functions
 *		are called for every row of a view.  A look that warned (something
 *		is still in place) is tried again at the next statement, not at
 *		every row.
 */
void
pb_journal_recover(void)
{
	uint64		changes;
	TimestampTz statement = GetCurrentStatementStartTimestamp();
	struct stat st;
	bool		settled;

	/* no subtransaction in parallel mode: a later call does it */
	if (IsInParallelMode() || !IsTransactionState())
		return;
	changes = pg_atomic_read_u64(&pb_journal_shared()->changes);
	if (journal_looked && changes == journal_looked_at &&
		(journal_settled || statement == journal_warned_in))
		return;
	/* the file as it is now, not as it was before the counter was read */
	pg_read_barrier();
	if (stat(PB_JOURNAL_FILE, &st) != 0 && errno == ENOENT)
		settled = true;
	else
		settled = pb_journal_recover_settled();
	/* remembered only once the look is done: an error looks again */
	journal_looked = true;
	journal_looked_at = changes;
	journal_settled = settled;
	if (!settled)
		journal_warned_in = statement;
}

/*
 * pb_journal_register_worker
 *		With polarbench in shared_preload_libraries: a worker that puts back
 *		the settings of a run interrupted by the server's stop, as soon as
 *		the server starts.
 */
void
pb_journal_register_worker(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker.bgw_library_name, "polarbench", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "pb_journal_worker_main", BGW_MAXLEN);
	strlcpy(worker.bgw_name, "polarbench settings restore", BGW_MAXLEN);
	strlcpy(worker.bgw_type, "polarbench settings restore", BGW_MAXLEN);
	RegisterBackgroundWorker(&worker);
}

/*
 * pb_journal_worker_main
 *		The worker pb_journal_register_worker() registers: connected to no
 *		database, as the bootstrap superuser.
 */
void
pb_journal_worker_main(Datum main_arg)
{
	struct stat st;

	BackgroundWorkerUnblockSignals();
	if (stat(PB_JOURNAL_FILE, &st) != 0 && errno == ENOENT)
		proc_exit(0);
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	pgstat_report_activity(STATE_RUNNING, "polarbench: putting back server settings");
	pb_journal_recover_now();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
	proc_exit(0);
}
