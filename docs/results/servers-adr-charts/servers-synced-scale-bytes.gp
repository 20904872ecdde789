# Drawn by KvBench from servers-synced-scale-bytes.dat; run `gnuplot servers-synced-scale-bytes.gp` in this folder to draw servers-synced-scale-bytes.png again.
set terminal pngcairo size 1200,675 noenhanced font "Sans,11"
set output "servers-synced-scale-bytes.png"
set datafile separator "\t"
set datafile missing "NaN"
set title "Bytes on disk per record against records\nSynced\nmeasured 2026-11-27 on AMD EPYC, 2 logical cores, 23.5 GiB, ext4"
set xlabel "Records loaded (log scale)"
set ylabel "Bytes on disk per record (B)"
set key outside right top box opaque
set grid ytics mytics lt 1 lc rgb "#c8c8c8" lw 1, lt 1 lc rgb "#ededed" lw 1
set border 3
set tics nomirror
set yrange [0:*]
set logscale x 10
set xrange [769.2307692308:13000]
set xtics ("1,000" 1000, "10,000" 10000)
plot "servers-synced-scale-bytes.dat" using 2:8 with linespoints title "Sqlite_WAL" lc rgb "#E69F00" lw 2 dt 1 pt 4 ps 1.3, \
     "" using 2:9 with linespoints title "LMDB" lc rgb "#56B4E9" lw 2 dt 2 pt 6 ps 1.3
