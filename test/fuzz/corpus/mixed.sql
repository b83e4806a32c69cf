\set x random_zipfian(1, 100, 1.5) + random_exponential(1, 10, 2.0)
\if :x % 2 = 0 and not :scale is null
\set y permute(:x, 100) # hash(:x) << 2
\elif :x > 50
\sleep 1 ms
\else
\set y case when :x < 10 then least(1, 2.5) else greatest(:x, pi()) end
\endif
SELECT :x::int, $$a:b$$, E'\'' :y;
\gset p_
\startpipeline
SELECT 1 \; SELECT 2 \gset
\endpipeline
