;; probe: two parts already stand on a rack at the start (part2 at the factory end, part1 behind it) and
;; only part3 is still on the Beluga; the line wants part1 first, so part2 has to make way.
(define (problem beluga-probe-parts-already-on-racks)
  (:domain beluga)
  (:objects
    t1 - beluga-truck
    t2 - fab-truck
    rack1 rack2 - rack
    part1 part2 part3 - part
    plA - production-line
    n03 n04 n06 n07 n08 n09 n10 n11 n12 - num)
  (:init
    (empty t1) (empty t2)
    (fit-n-sum n00 n03 n03) (fit-n-sum n00 n04 n04)
    (fit-n-sum n03 n03 n06) (fit-n-sum n03 n04 n07) (fit-n-sum n04 n03 n07) (fit-n-sum n04 n04 n08)
    (fit-n-sum n06 n03 n09) (fit-n-sum n06 n04 n10) (fit-n-sum n07 n03 n10) (fit-n-sum n07 n04 n11)
    (fit-n-sum n08 n03 n11) (fit-n-sum n08 n04 n12) (fit-n-sum n09 n03 n12)
    (on-rack rack1 part1) (on-rack rack1 part2)
    (rack-succ part1 part2)
    (no-rack-pre part1) (no-rack-succ part2)
    (level rack1 n07)
    (on-rack noner part3)
    (no-rack-pre part3) (no-rack-succ part3)
    (ready-to-unload part3)
    (next-to-unload part3 nonep)
    (size part1 n03) (size part2 n04) (size part3 n04)
    (level rack2 n00) (unused rack2)
    (needed-next nonep)
    (p-line-next plA part1)
    (p-line-succ part1 part3) (p-line-succ part3 part2) (p-line-succ part2 nonep)
    (p-line-succ nonep nonep))
  (:goal (and (processed part1) (processed part2) (processed part3))))
