;; probe: locations and cars with names that follow no pattern (the generator always writes l<i> and c<i>),
;; listed in a mixed order, with the ferry at a location no car is at.
(define (problem ferry-probe-other-names)
  (:domain ferry)
  (:objects mainland volvo island harbour saab)
  (:init
    (car saab) (car volvo)
    (location harbour) (location island) (location mainland)
    (not-eq harbour island) (not-eq harbour mainland) (not-eq island harbour)
    (not-eq island mainland) (not-eq mainland harbour) (not-eq mainland island)
    (empty-ferry)
    (at-ferry harbour)
    (at volvo island)
    (at saab mainland))
  (:goal (and (at volvo mainland) (at saab island))))
