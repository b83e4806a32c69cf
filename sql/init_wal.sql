SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- The load writes its pages to WAL as full-page images, compressed unless
-- asked not to (figures: WAL bytes between two loads, far apart)
SELECT pg_current_wal_lsn() AS lsn0 \gset
SELECT rows FROM polarbench_init('pgbench', scale => 2);
SELECT pg_current_wal_lsn() AS lsn1 \gset
SELECT rows FROM polarbench_init('pgbench', scale => 2, wal_compression => false);
SELECT pg_current_wal_lsn() AS lsn2 \gset
SELECT :'lsn2'::pg_lsn - :'lsn1'::pg_lsn > 3 * (:'lsn1'::pg_lsn - :'lsn0'::pg_lsn)
       AS compressed;
-- the setting is the load's only
SHOW wal_compression;
-- parallel workers compress theirs too
SELECT pg_current_wal_lsn() AS lsn3 \gset
SELECT rows FROM polarbench_init('pgbench', scale => 2, partitions => 2, parallel => 2);
SELECT pg_current_wal_lsn() AS lsn4 \gset
SELECT :'lsn2'::pg_lsn - :'lsn1'::pg_lsn > 3 * (:'lsn4'::pg_lsn - :'lsn3'::pg_lsn)
       AS parallel_compressed;
DROP TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
-- a role that may not set wal_compression loads with the server's setting,
-- without error; granted SET on it, it compresses
CREATE ROLE polarbench_wal_tester;
GRANT CREATE ON SCHEMA public TO polarbench_wal_tester;
GRANT EXECUTE ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) TO polarbench_wal_tester;
SET ROLE polarbench_wal_tester;
SELECT pg_current_wal_lsn() AS lsn5 \gset
SELECT rows FROM polarbench_init('pgbench', scale => 2);
SELECT pg_current_wal_lsn() AS lsn6 \gset
SHOW wal_compression;
RESET ROLE;
SELECT :'lsn6'::pg_lsn - :'lsn5'::pg_lsn > 3 * (:'lsn1'::pg_lsn - :'lsn0'::pg_lsn)
       AS not_compressed;
GRANT SET ON PARAMETER wal_compression TO polarbench_wal_tester;
SET ROLE polarbench_wal_tester;
SELECT pg_current_wal_lsn() AS lsn7 \gset
SELECT rows FROM polarbench_init('pgbench', scale => 2);
SELECT pg_current_wal_lsn() AS lsn8 \gset
SHOW wal_compression;
RESET ROLE;
SELECT :'lsn6'::pg_lsn - :'lsn5'::pg_lsn > 3 * (:'lsn8'::pg_lsn - :'lsn7'::pg_lsn)
       AS compressed_when_granted;
DROP TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
REVOKE SET ON PARAMETER wal_compression FROM polarbench_wal_tester;
REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) FROM polarbench_wal_tester;
REVOKE CREATE ON SCHEMA public FROM polarbench_wal_tester;
DROP ROLE polarbench_wal_tester;
