;; probe: the goal asks to pack two of four items and says that the other two must stay out of the box
;; (the generator's goal always packs every item).
(define (problem heavy-probe-leave-some-unpacked)
  (:domain heavy)
  (:objects o1 o2 o3 o4)
  (:init
    (box-empty)
    (unpacked o1) (unpacked o2) (unpacked o3) (unpacked o4)
    (heavier o1 o2) (heavier o1 o3) (heavier o1 o4)
    (heavier o2 o3) (heavier o2 o4)
    (heavier o3 o4))
  (:goal (and (packed o2) (packed o4) (not (packed o1)) (not (packed o3)))))
