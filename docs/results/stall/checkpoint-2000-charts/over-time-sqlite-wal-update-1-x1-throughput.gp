# Drawn by KvBench from over-time-sqlite-wal-update-1-x1-throughput.dat; run `gnuplot over-time-sqlite-wal-update-1-x1-throughput.gp` in this folder to draw over-time-sqlite-wal-update-1-x1-throughput.png again.
set terminal pngcairo size 1200,675 noenhanced font "Sans,11"
set output "over-time-sqlite-wal-update-1-x1-throughput.png"
set datafile separator "\t"
set datafile missing "NaN"
set title "Operations per second over the run, Sqlite_WAL, update=1, 1 threads\nBuffered\nmeasured 2026-11-28 on AMD EPYC, 2 logical cores, 23.5 GiB, ext4"
set xlabel "Seconds into the measured window (s)"
set ylabel "Operations per second (ops/s)"
set key outside right top box opaque
set grid ytics mytics lt 1 lc rgb "#c8c8c8" lw 1, lt 1 lc rgb "#ededed" lw 1
set border 3
set tics nomirror
set yrange [0:*]
set xrange [-0.5975:6.5475]
set xtics ("0" 0, "" 0.05, "" 0.1, "" 0.15, "" 0.2, "" 0.25, "" 0.3, "" 0.35, "0.4" 0.4, "" 0.45, "" 0.5, "" 0.55, "" 0.6, "" 0.65, "" 0.7, "" 0.75, "0.8" 0.8, "" 0.85, "" 0.9, "" 0.95, "" 1, "" 1.05, "" 1.1, "" 1.15, "1.2" 1.2, "" 1.25, "" 1.3, "" 1.35, "" 1.4, "" 1.45, "" 1.5, "" 1.55, "1.6" 1.6, "" 1.65, "" 1.7, "" 1.75, "" 1.8, "" 1.85, "" 1.9, "" 1.95, "2" 2, "" 2.05, "" 2.1, "" 2.15, "" 2.2, "" 2.25, "" 2.3, "" 2.35, "2.4" 2.4, "" 2.45, "" 2.5, "" 2.55, "" 2.6, "" 2.65, "" 2.7, "" 2.75, "2.8" 2.8, "" 2.85, "" 2.9, "" 2.95, "" 3, "" 3.05, "" 3.1, "" 3.15, "3.2" 3.2, "" 3.25, "" 3.3, "" 3.35, "" 3.4, "" 3.45, "" 3.5, "" 3.55, "3.6" 3.6, "" 3.65, "" 3.7, "" 3.75, "" 3.8, "" 3.85, "" 3.9, "" 3.95, "4" 4, "" 4.05, "" 4.1, "" 4.15, "" 4.2, "" 4.25, "" 4.3, "" 4.35, "4.4" 4.4, "" 4.45, "" 4.5, "" 4.55, "" 4.6, "" 4.65, "" 4.7, "" 4.75, "4.8" 4.8, "" 4.85, "" 4.9, "" 4.95, "" 5, "" 5.05, "" 5.1, "" 5.15, "5.2" 5.2, "" 5.25, "" 5.3, "" 5.35, "" 5.4, "" 5.45, "" 5.5, "" 5.55, "5.6" 5.6, "" 5.65, "" 5.7, "" 5.75, "" 5.8, "" 5.85, "" 5.9, "" 5.95)
plot "over-time-sqlite-wal-update-1-x1-throughput.dat" using 2:3 with linespoints title "Sqlite_WAL" lc rgb "#0072B2" lw 2 dt 1 pt 7 ps 1.3
