;; probe: the factory already waits for part2 at the start (needed-next part2, not nonep) and part3 was
;; processed before; part1 is on the only factory truck, which must put it on a rack first.
(define (problem beluga-probe-line-already-waiting)
  (:domain beluga)
  (:objects
    t1 - beluga-truck
    t2 - fab-truck
    rack1 rack2 - rack
    part1 part2 part3 - part
    plA - production-line
    n04 n05 n08 n09 n10 - num)
  (:init
    (empty t1)
    (fit-n-sum n00 n04 n04) (fit-n-sum n00 n05 n05) (fit-n-sum n04 n04 n08) (fit-n-sum n04 n05 n09)
    (fit-n-sum n05 n04 n09) (fit-n-sum n05 n05 n10)
    (processed part3)
    (on-truck part1 t2)
    (on-rack noner part1) (on-rack noner part2)
    (ready-to-unload part2)
    (next-to-unload part2 nonep)
    (no-rack-succ part1) (no-rack-pre part1) (no-rack-succ part2) (no-rack-pre part2)
    (size part1 n04) (size part2 n05) (size part3 n04)
    (level rack1 n00) (unused rack1) (level rack2 n00) (unused rack2)
    (needed-next part2)
    (p-line-next plA part1)
    (p-line-succ part1 nonep) (p-line-succ nonep nonep))
  (:goal (and (processed part1) (processed part2) (processed part3))))
