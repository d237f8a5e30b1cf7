;; probe: the trail has a gap (r0_c2 to r2_c2 is unmarked), so following it alone does not reach the
;; goal; a detour over unmarked cells is needed. 3x3 grid, no water, one hill.
(define (problem hiking-probe-interrupted-trail)
  (:domain hiking)
  (:objects
    r0_c0 r0_c1 r0_c2 - loc
    r1_c0 r1_c1 r1_c2 - loc
    r2_c0 r2_c1 r2_c2 - loc)
  (:init
    (at r0_c0)
    (adjacent r0_c0 r0_c1) (adjacent r0_c0 r1_c0)
    (adjacent r0_c1 r0_c0) (adjacent r0_c1 r0_c2) (adjacent r0_c1 r1_c1)
    (adjacent r0_c2 r0_c1) (adjacent r0_c2 r1_c2)
    (adjacent r1_c0 r0_c0) (adjacent r1_c0 r1_c1) (adjacent r1_c0 r2_c0)
    (adjacent r1_c1 r0_c1) (adjacent r1_c1 r1_c0) (adjacent r1_c1 r1_c2) (adjacent r1_c1 r2_c1)
    (adjacent r1_c2 r0_c2) (adjacent r1_c2 r1_c1) (adjacent r1_c2 r2_c2)
    (adjacent r2_c0 r1_c0) (adjacent r2_c0 r2_c1)
    (adjacent r2_c1 r1_c1) (adjacent r2_c1 r2_c0) (adjacent r2_c1 r2_c2)
    (adjacent r2_c2 r1_c2) (adjacent r2_c2 r2_c1)
    (isHill r1_c2)
    (onTrail r0_c0 r0_c1)
    (onTrail r0_c1 r0_c2))
  (:goal (at r2_c2)))
