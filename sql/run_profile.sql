-- Where a run's time went: its clients' wait events, sampled by the
-- recorder, and the server-wide counters it moved.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;

SELECT run_id AS run, transactions AS done
  FROM polarbench_run('tpcb-like', clients => 2, duration => 0.5) \gset
-- samples, whose shares add up to one, of known wait event types
SELECT count(*) > 0 AS sampled, abs(sum(share) - 1) < 1e-9 AS shares_add_up,
       bool_and(samples > 0) AS counted,
       bool_and(wait_event_type IN ('CPU', 'LWLock', 'Lock', 'BufferPin', 'Activity',
                                    'Client', 'Extension', 'IPC', 'Timeout', 'IO')) AS known_types
  FROM polarbench_wait_events WHERE run_id = :run;
-- the server's counters: each tpcb-like transaction commits and inserts a
-- history row, and writes WAL
SELECT (server_stats->>'xact_commit')::int8 >= :done AS commits,
       (server_stats->>'tup_inserted')::int8 >= :done AS inserts,
       (server_stats->>'wal_bytes')::int8 > 0 AS wal,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(server_stats) k) AS counters
  FROM polarbench_runs WHERE run_id = :run;
-- a warm-up is left out of the samples: a run that is all warm-up but a
-- moment has far fewer samples than one that is not
SELECT run_id AS warm FROM polarbench_run('select-only', duration => 1, warmup => 0.9) \gset
SELECT run_id AS cold FROM polarbench_run('select-only', duration => 1) \gset
SELECT (SELECT sum(samples) FROM polarbench_wait_events WHERE run_id = :warm) <
       (SELECT sum(samples) FROM polarbench_wait_events WHERE run_id = :cold) / 2 AS warmup_not_sampled;
