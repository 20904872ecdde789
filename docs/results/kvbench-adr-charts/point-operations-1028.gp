# Drawn by KvBench from point-operations-1028.dat; run `gnuplot point-operations-1028.gp` in this folder to draw point-operations-1028.png again.
set terminal pngcairo size 1200,675 noenhanced font "Sans,11"
set output "point-operations-1028.png"
set datafile separator "\t"
set datafile missing "NaN"
set title "Mean time per call, 1028-byte values\nBuffered; FASTER: memory until Flush; LiteDB: Synced; Memory: memory only\nmeasured 2026-12-06 on AMD EPYC, 2 logical cores, 23.5 GiB, ext4"
set xlabel "Row"
set ylabel "Mean time per call (µs), log scale"
set key outside right top box opaque
set grid ytics mytics lt 1 lc rgb "#c8c8c8" lw 1, lt 1 lc rgb "#ededed" lw 1
set border 3
set tics nomirror
set logscale y 10
set mytics 10
set format y "%g"
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9 relative
set xtics rotate by -30
plot "point-operations-1028.dat" using 3:xtic(1) title "Put" lc rgb "#0072B2" fillstyle solid 0.85 border lc rgb "#000000", \
     "" using 4 title "Get" lc rgb "#D55E00" fillstyle pattern 4 border lc rgb "#000000"
