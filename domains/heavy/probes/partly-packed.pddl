;; probe: the box is not empty at the start: the heaviest item is already in it.
(define (problem heavy-probe-partly-packed)
  (:domain heavy)
  (:objects o1 o2 o3)
  (:init
    (packed o1) (nothing-above o1)
    (unpacked o2) (unpacked o3)
    (heavier o1 o2) (heavier o1 o3)
    (heavier o2 o3))
  (:goal (and (packed o1) (packed o2) (packed o3))))
