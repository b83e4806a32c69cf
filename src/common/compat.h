/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Differences between the PostgreSQL major versions polarbench builds
 *	  against (15, 16 and 17), kept in one place for the whole extension.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_COMPAT_H
#define PB_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "polarbench needs PostgreSQL 15 or later"
#endif

#if PG_VERSION_NUM >= 160000
#include "storage/relfilelocator.h"
#include "utils/guc_hooks.h"
#else
#include "storage/relfilenode.h"
#endif

/* PostgreSQL 17 numbers a process's PGPROC with MyProcNumber. */
#if PG_VERSION_NUM >= 170000
#define PB_MY_PGPROCNO		MyProcNumber
#else
#define PB_MY_PGPROCNO		(MyProc->pgprocno)
#endif

/* PostgreSQL 17 gave LockHeldByMe() a flag for stronger modes. */
#if PG_VERSION_NUM >= 170000
#define PB_LOCK_HELD_BY_ME(tag, mode)	LockHeldByMe((tag), (mode), false)
#else
#define PB_LOCK_HELD_BY_ME(tag, mode)	LockHeldByMe((tag), (mode))
#endif

/* PostgreSQL 16 renamed relfilenodes to relfilelocators, and 17 gave
 * smgropen() a process number. */
#if PG_VERSION_NUM >= 160000
#define PB_REL_FIRST_SUBID(rel)		((rel)->rd_firstRelfilelocatorSubid)
#define pb_namespace_aclcheck(nsp, role, mode) \
	object_aclcheck(NamespaceRelationId, (nsp), (role), (mode))
#else
#define PB_REL_FIRST_SUBID(rel)		((rel)->rd_firstRelfilenodeSubid)
#define pb_namespace_aclcheck(nsp, role, mode) \
	pg_namespace_aclcheck((nsp), (role), (mode))
#endif
#if PG_VERSION_NUM >= 160000
typedef RelFileLocator PbRelLocator;
#define PB_SMGR_LOCATOR(smgr)		(&(smgr)->smgr_rlocator.locator)
#else
typedef RelFileNode PbRelLocator;
#define PB_SMGR_LOCATOR(smgr)		(&(smgr)->smgr_rnode.node)
#endif
#if PG_VERSION_NUM >= 170000
#define PB_SMGROPEN(locator)		smgropen((locator), INVALID_PROC_NUMBER)
#else
#define PB_SMGROPEN(locator)		smgropen((locator), InvalidBackendId)
#endif
#if PG_VERSION_NUM >= 160000
#define PB_DROP_RELATION_BUFFERS(smgr, forks, nforks, first) \
	DropRelationBuffers((smgr), (forks), (nforks), (first))
#else
#define PB_DROP_RELATION_BUFFERS(smgr, forks, nforks, first) \
	DropRelFileNodeBuffers((smgr), (forks), (nforks), (first))
#endif

/* PostgreSQL 16 has get_guc_variables() count the parameters it returns. */
#if PG_VERSION_NUM >= 160000
#define PB_GUC_VARIABLES(n)		get_guc_variables(n)
#else
#define PB_GUC_VARIABLES(n)		(*(n) = GetNumConfigOptions(), get_guc_variables())
#endif

#endif							/* PB_COMPAT_H */
