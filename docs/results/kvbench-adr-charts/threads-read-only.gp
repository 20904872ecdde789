# Drawn by KvBench from threads-read-only.dat; run `gnuplot threads-read-only.gp` in this folder to draw threads-read-only.png again.
set terminal pngcairo size 1200,675 noenhanced font "Sans,11"
set output "threads-read-only.png"
set datafile separator "\t"
set datafile missing "NaN"
set title "Operations per second against threads, read-only\nBuffered; LiteDB: Synced; FASTER: memory until Flush; Memory: memory only\nmeasured 2026-12-06 on AMD EPYC, 2 logical cores, 23.5 GiB, ext4"
set xlabel "Threads (log scale)"
set ylabel "Operations per second, all threads (ops/s), log scale"
set key outside right top box opaque
set grid ytics mytics lt 1 lc rgb "#c8c8c8" lw 1, lt 1 lc rgb "#ededed" lw 1
set border 3
set tics nomirror
set logscale y 10
set mytics 10
set format y "%.0f"
set logscale x 10
set xrange [0.7692307692:5.2]
set xtics ("1" 1, "4" 4)
plot "threads-read-only.dat" using 2:3 with linespoints title "Sqlite_WAL" lc rgb "#0072B2" lw 2 dt 1 pt 7 ps 1.3, \
     "" using 2:4 with linespoints title "Sqlite_Scalar" lc rgb "#D55E00" lw 2 dt 2 pt 5 ps 1.3, \
     "" using 2:5 with linespoints title "LMDB" lc rgb "#009E73" lw 2 dt 3 pt 9 ps 1.3, \
     "" using 2:6 with linespoints title "LiteDB" lc rgb "#CC79A7" lw 2 dt 4 pt 11 ps 1.3, \
     "" using 2:7 with linespoints title "LiteDB_Direct" lc rgb "#000000" lw 2 dt 5 pt 13 ps 1.3, \
     "" using 2:8 with linespoints title "RocksDB" lc rgb "#E69F00" lw 2 dt 1 pt 4 ps 1.3, \
     "" using 2:9 with linespoints title "FASTER" lc rgb "#56B4E9" lw 2 dt 2 pt 6 ps 1.3, \
     "" using 2:10 with linespoints title "FileSystem" lc rgb "#0072B2" lw 2 dt 3 pt 8 ps 1.3, \
     "" using 2:11 with linespoints title "Memory" lc rgb "#D55E00" lw 2 dt 4 pt 10 ps 1.3
