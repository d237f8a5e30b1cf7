;; probe: the trail leads somewhere else; the goal cell is not on it. The way to the goal climbs a hill.
(define (problem hiking-probe-goal-off-trail)
  (:domain hiking)
  (:objects
    r0_c0 r0_c1 r0_c2 - loc
    r1_c0 r1_c1 r1_c2 - loc)
  (:init
    (at r0_c0)
    (adjacent r0_c0 r0_c1) (adjacent r0_c0 r1_c0)
    (adjacent r0_c1 r0_c0) (adjacent r0_c1 r0_c2) (adjacent r0_c1 r1_c1)
    (adjacent r0_c2 r0_c1) (adjacent r0_c2 r1_c2)
    (adjacent r1_c0 r0_c0) (adjacent r1_c0 r1_c1)
    (adjacent r1_c1 r0_c1) (adjacent r1_c1 r1_c0) (adjacent r1_c1 r1_c2)
    (adjacent r1_c2 r0_c2) (adjacent r1_c2 r1_c1)
    (isHill r1_c1)
    (isWater r0_c2)
    (onTrail r0_c0 r1_c0))
  (:goal (at r1_c2)))
