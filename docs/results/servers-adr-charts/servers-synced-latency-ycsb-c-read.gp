# Drawn by KvBench from servers-synced-latency-ycsb-c-read.dat; run `gnuplot servers-synced-latency-ycsb-c-read.gp` in this folder to draw servers-synced-latency-ycsb-c-read.png again.
set terminal pngcairo size 1200,675 noenhanced font "Sans,11"
set output "servers-synced-latency-ycsb-c-read.png"
set datafile separator "\t"
set datafile missing "NaN"
set title "YCSB-C Read latency percentiles, 4 threads\nSynced\nmeasured 2026-11-27 on AMD EPYC, 2 logical cores, 23.5 GiB, ext4"
set xlabel "Percentile"
set ylabel "Latency (ms), log scale"
set key outside right top box opaque
set grid ytics mytics lt 1 lc rgb "#c8c8c8" lw 1, lt 1 lc rgb "#ededed" lw 1
set border 3
set tics nomirror
set logscale y 10
set mytics 10
set format y "%g"
set xrange [-0.45:3.45]
set xtics ("p50" 0, "p95" 1, "p99" 2, "p99.9" 3)
plot "servers-synced-latency-ycsb-c-read.dat" using 2:3 with linespoints title "Redis" lc rgb "#0072B2" lw 2 dt 1 pt 7 ps 1.3, \
     "" using 2:4 with linespoints title "PostgreSQL" lc rgb "#D55E00" lw 2 dt 2 pt 5 ps 1.3, \
     "" using 2:5 with linespoints title "MariaDB" lc rgb "#009E73" lw 2 dt 3 pt 9 ps 1.3, \
     "" using 2:6 with linespoints title "etcd" lc rgb "#CC79A7" lw 2 dt 4 pt 11 ps 1.3, \
     "" using 2:7 with linespoints title "dqlite" lc rgb "#000000" lw 2 dt 5 pt 13 ps 1.3, \
     "" using 2:8 with linespoints title "Sqlite_WAL" lc rgb "#E69F00" lw 2 dt 1 pt 4 ps 1.3, \
     "" using 2:9 with linespoints title "LMDB" lc rgb "#56B4E9" lw 2 dt 2 pt 6 ps 1.3
