# Drawn by KvBench from latency-ycsb-b-update.dat; run `gnuplot latency-ycsb-b-update.gp` in this folder to draw latency-ycsb-b-update.png again.
set terminal pngcairo size 1200,675 noenhanced font "Sans,11"
set output "latency-ycsb-b-update.png"
set datafile separator "\t"
set datafile missing "NaN"
set title "YCSB-B Update latency percentiles, 4 threads\nBuffered; LiteDB: Synced; FASTER: memory until Flush; Memory: memory only\nmeasured 2026-12-06 on AMD EPYC, 2 logical cores, 23.5 GiB, ext4"
set xlabel "Percentile"
set ylabel "Latency (µs), log scale"
set key outside right top box opaque
set grid ytics mytics lt 1 lc rgb "#c8c8c8" lw 1, lt 1 lc rgb "#ededed" lw 1
set border 3
set tics nomirror
set logscale y 10
set mytics 10
set format y "%g"
set xrange [-0.45:3.45]
set xtics ("p50" 0, "p95" 1, "p99" 2, "p99.9" 3)
plot "latency-ycsb-b-update.dat" using 2:3 with linespoints title "Sqlite_WAL" lc rgb "#0072B2" lw 2 dt 1 pt 7 ps 1.3, \
     "" using 2:4 with linespoints title "Sqlite_Scalar" lc rgb "#D55E00" lw 2 dt 2 pt 5 ps 1.3, \
     "" using 2:5 with linespoints title "LMDB" lc rgb "#009E73" lw 2 dt 3 pt 9 ps 1.3, \
     "" using 2:6 with linespoints title "LiteDB" lc rgb "#CC79A7" lw 2 dt 4 pt 11 ps 1.3, \
     "" using 2:7 with linespoints title "LiteDB_Direct" lc rgb "#000000" lw 2 dt 5 pt 13 ps 1.3, \
     "" using 2:8 with linespoints title "RocksDB" lc rgb "#E69F00" lw 2 dt 1 pt 4 ps 1.3, \
     "" using 2:9 with linespoints title "FASTER" lc rgb "#56B4E9" lw 2 dt 2 pt 6 ps 1.3, \
     "" using 2:10 with linespoints title "FileSystem" lc rgb "#0072B2" lw 2 dt 3 pt 8 ps 1.3, \
     "" using 2:11 with linespoints title "Memory" lc rgb "#D55E00" lw 2 dt 4 pt 10 ps 1.3
