;; probe: a package has to end up inside a truck instead of at a location.
(define (problem transport-probe-package-goal-in-truck)
  (:domain transport)
  (:objects
    city-loc-0 city-loc-1 - location
    truck-0 - vehicle
    package-0 package-1 - package
    capacity-0 capacity-1 capacity-2 - capacity-number)
  (:init
    (road city-loc-0 city-loc-1) (road city-loc-1 city-loc-0)
    (capacity-predecessor capacity-0 capacity-1)
    (capacity-predecessor capacity-1 capacity-2)
    (at truck-0 city-loc-0)
    (capacity truck-0 capacity-2)
    (at package-0 city-loc-1)
    (at package-1 city-loc-0))
  (:goal (and (in package-0 truck-0) (at package-1 city-loc-1))))
