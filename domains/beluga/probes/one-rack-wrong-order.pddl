;; probe: one rack only, and the flight brings the parts in the opposite of the line's order; the parts
;; must be reordered with the two factory trucks (the generator's strategy gets stuck here).
(define (problem beluga-probe-one-rack-wrong-order)
  (:domain beluga)
  (:objects
    t1 - beluga-truck
    t2 t3 - fab-truck
    rack1 - rack
    part1 part2 - part
    plA - production-line
    n05 n06 n10 n11 n12 - num)
  (:init
    (empty t1) (empty t2) (empty t3)
    (fit-n-sum n00 n05 n05) (fit-n-sum n00 n06 n06) (fit-n-sum n05 n05 n10) (fit-n-sum n05 n06 n11)
    (fit-n-sum n06 n05 n11) (fit-n-sum n06 n06 n12)
    (on-rack noner part1) (on-rack noner part2)
    (ready-to-unload part2)
    (next-to-unload part2 part1) (next-to-unload part1 nonep)
    (no-rack-succ part1) (no-rack-pre part1) (no-rack-succ part2) (no-rack-pre part2)
    (size part1 n05) (size part2 n06)
    (level rack1 n00) (unused rack1)
    (needed-next nonep)
    (p-line-next plA part1)
    (p-line-succ part1 part2) (p-line-succ part2 nonep) (p-line-succ nonep nonep))
  (:goal (and (processed part1) (processed part2))))
