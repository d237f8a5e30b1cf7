;; probe: (above ...) holds only between neighbouring floors, so the lift moves one floor at a time (the
;; generator lists every pair of floors).
(define (problem miconic-probe-neighbour-floors-only)
  (:domain miconic)
  (:objects f0 f1 f2 f3 - floor p0 p1 - passenger)
  (:init
    (above f0 f1) (above f1 f2) (above f2 f3)
    (origin p0 f3) (destin p0 f0)
    (origin p1 f0) (destin p1 f2)
    (lift-at f1))
  (:goal (and (served p0) (served p1))))
