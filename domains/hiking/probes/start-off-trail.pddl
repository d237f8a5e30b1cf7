;; probe: the hiker starts next to the trail, not on it; water blocks the direct way down.
(define (problem hiking-probe-start-off-trail)
  (:domain hiking)
  (:objects
    r0_c0 r0_c1 r0_c2 - loc
    r1_c0 r1_c1 r1_c2 - loc
    r2_c0 r2_c1 r2_c2 - loc)
  (:init
    (at r0_c2)
    (adjacent r0_c0 r0_c1) (adjacent r0_c0 r1_c0)
    (adjacent r0_c1 r0_c0) (adjacent r0_c1 r0_c2) (adjacent r0_c1 r1_c1)
    (adjacent r0_c2 r0_c1) (adjacent r0_c2 r1_c2)
    (adjacent r1_c0 r0_c0) (adjacent r1_c0 r1_c1) (adjacent r1_c0 r2_c0)
    (adjacent r1_c1 r0_c1) (adjacent r1_c1 r1_c0) (adjacent r1_c1 r1_c2) (adjacent r1_c1 r2_c1)
    (adjacent r1_c2 r0_c2) (adjacent r1_c2 r1_c1) (adjacent r1_c2 r2_c2)
    (adjacent r2_c0 r1_c0) (adjacent r2_c0 r2_c1)
    (adjacent r2_c1 r1_c1) (adjacent r2_c1 r2_c0) (adjacent r2_c1 r2_c2)
    (adjacent r2_c2 r1_c2) (adjacent r2_c2 r2_c1)
    (isWater r1_c2)
    (onTrail r0_c0 r1_c0)
    (onTrail r1_c0 r2_c0)
    (onTrail r2_c0 r2_c1))
  (:goal (at r2_c1)))
