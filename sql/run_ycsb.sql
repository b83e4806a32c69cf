-- YCSB's CoreWorkload with the JDBC binding's statements: operations as
-- the proportions say, inserts that extend the key space with YCSB's key
-- names and never collide, the load phase, per-operation figures, the
-- options and their errors, and YCSB's report.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset, tables, rows FROM polarbench_init('ycsb', records => 1000);
RESET client_min_messages;

-- the kind's workloads as polarbench_workloads lists them: whether each
-- writes, its report's style, how many options it takes
SELECT name, writes, report_style, jsonb_array_length(options) AS options
  FROM polarbench_workloads WHERE kind = 'ycsb';

-- workload c: reads only, one SELECT * per operation
SELECT workload, transactions, statements, reads, writes, others, errors
  FROM polarbench_run('ycsb-c', clients => 2, transactions => 50);
SELECT operation, operations, errors, latency_min <= latency_avg AS min_le_avg,
       latency_avg <= latency_max AS avg_le_max,
       latency_p95 <= latency_p99 AND latency_p99 <= latency_max AS percentiles_ordered
  FROM polarbench_operations WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);
SELECT options->>'recordcount' AS recordcount, options->>'requestdistribution' AS requestdistribution,
       options->>'fieldcount' AS fieldcount
  FROM polarbench_runs WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- workload a: every operation a read or an update of one existing record
SELECT workload, transactions, reads + writes AS statements, others, errors
  FROM polarbench_run('ycsb-a', clients => 2, transactions => 50);
SELECT sum(operations) AS operations, bool_and(operation IN ('READ', 'UPDATE')) AS reads_and_updates
  FROM polarbench_operations WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- proportions given directly, as Alibaba Cloud's PolarDB YCSB report does: write only; then every
-- field written
SELECT workload, reads, writes
  FROM polarbench_run('ycsb-a', transactions => 40,
                      options => '{"read_proportion": 0, "update_proportion": 1}');
SELECT workload, reads, writes
  FROM polarbench_run('ycsb-a', transactions => 10,
                      options => '{"readproportion": 0, "updateproportion": 1, "writeallfields": true}');
SELECT count(*) FILTER (WHERE length(field0) = 100 AND field0 ~ '^[ -\x7f]+$') AS field0_ok
  FROM usertable;

-- workload f: a read-modify-write is a read and an update, timed together
SELECT workload, transactions, reads, writes
  FROM polarbench_run('ycsb-f', transactions => 40, random_seed => 7);
SELECT (SELECT operations FROM polarbench_operations o WHERE o.run_id = r.run_id AND operation = 'READ') = r.reads AS reads_counted,
       (SELECT operations FROM polarbench_operations o WHERE o.run_id = r.run_id AND operation = 'UPDATE') = r.writes AS updates_counted,
       (SELECT operations FROM polarbench_operations o WHERE o.run_id = r.run_id AND operation = 'READ-MODIFY-WRITE') = r.writes AS rmw_counted
  FROM polarbench_runs r WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- workload d: inserts from two clients extend the key space, with the keys
-- the loader gives records 1000, 1001, ..., and none twice
SELECT workload, transactions, errors
  FROM polarbench_run('ycsb-d', clients => 2, transactions => 200);
SELECT count(*) - 1000 = (SELECT operations FROM polarbench_operations
                           WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
                             AND operation = 'INSERT') AS grew_by_the_inserts,
       count(*) = count(DISTINCT ycsb_key) AS no_key_twice
  FROM usertable;
CREATE TABLE keys AS SELECT ycsb_key FROM usertable;
SELECT count(*) AS records FROM keys \gset
SET client_min_messages = warning;
SELECT rows = :records AS reloaded FROM polarbench_init('ycsb', records => :records);
RESET client_min_messages;
SELECT count(*) AS keys_not_the_loaders
  FROM (SELECT ycsb_key FROM keys EXCEPT SELECT ycsb_key FROM usertable) k;
DROP TABLE keys;

-- workload e: short scans, as many rows as the scan length at most
SELECT workload, transactions, reads + writes AS statements
  FROM polarbench_run('ycsb-e', transactions => 40, options => '{"maxscanlength": 10}');
-- the other request distributions
SELECT workload, reads + writes = transactions AS one_statement_each
  FROM polarbench_run('ycsb-b', transactions => 20, options => '{"requestdistribution": "uniform"}');
SELECT workload, reads + writes = transactions AS one_statement_each
  FROM polarbench_run('ycsb-b', transactions => 20, options => '{"requestdistribution": "hotspot"}');
SELECT workload, reads, writes
  FROM polarbench_run('ycsb-c', transactions => 20, options => '{"requestdistribution": "latest"}');
SELECT workload, reads + writes = transactions AS one_statement_each
  FROM polarbench_run('ycsb-e', transactions => 20,
                      options => '{"scanlengthdistribution": "zipfian", "insertorder": "ordered"}');

-- without a limit, operationcount operations in all
SELECT workload, transactions FROM polarbench_run('ycsb-c', clients => 2,
                                                    options => '{"operationcount": 30}');

-- the load phase: records split between the clients, the loader's keys
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('ycsb', records => 0);
RESET client_min_messages;
SELECT workload, transactions, writes, errors
  FROM polarbench_run('ycsb-load', clients => 2, options => '{"recordcount": 300}');
CREATE TABLE keys AS SELECT ycsb_key FROM usertable;
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('ycsb', records => 300);
RESET client_min_messages;
SELECT (SELECT count(*) FROM keys) AS loaded,
       (SELECT count(*) FROM (SELECT ycsb_key FROM keys EXCEPT SELECT ycsb_key FROM usertable) k) AS keys_not_the_loaders;
DROP TABLE keys;
SELECT operation, operations, errors
  FROM polarbench_operations WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- YCSB's report
SELECT polarbench_report(max(run_id)) AS report FROM polarbench_runs WHERE workload = 'ycsb-load'
\gset
SELECT line FROM regexp_split_to_table(:'report', E'\n') line
 WHERE line ~ '^\[INSERT\], (Operations|Return=OK)';
SELECT :'report' ~ '^\[OVERALL\], RunTime\(ms\), \d+' AS has_runtime,
       :'report' ~ '\[OVERALL\], Throughput\(ops/sec\), [0-9.]+' AS has_throughput,
       :'report' ~ '\[INSERT\], 99thPercentileLatency\(us\), \d+' AS has_p99;

-- bad input: clear errors before anything starts, nothing recorded
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run('ycsb-a', options => '{"readproportion": 0.9}');
SELECT * FROM polarbench_run('ycsb-a', options => '{"readproportion": 1.5}');
SELECT * FROM polarbench_run('ycsb-a', options => '{"requestdistribution": "exponential"}');
SELECT * FROM polarbench_run('ycsb-a', options => '{"threadcount": 4}');
SELECT * FROM polarbench_run('ycsb-e', options => '{"minscanlength": 200}');
SELECT * FROM polarbench_run('ycsb-a', options => '{"fieldcount": 11}');
SELECT * FROM polarbench_run('ycsb-a', options => '{"insertstart": 5000}');
SELECT * FROM polarbench_run('ycsb-load', options => '{"readproportion": 0.5, "insertproportion": 0.5}');
SELECT * FROM polarbench_report(-1);
SELECT * FROM polarbench_report(1, 'csv');
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('ycsb', records => 0);
RESET client_min_messages;
SELECT * FROM polarbench_run('ycsb-a');
DROP TABLE usertable;
SELECT * FROM polarbench_run('ycsb-a');
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;
