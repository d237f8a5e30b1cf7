;; probe: the goal also says where a truck must end up.
(define (problem transport-probe-truck-goal)
  (:domain transport)
  (:objects
    city-loc-0 city-loc-1 city-loc-2 - location
    truck-0 truck-1 - vehicle
    package-0 - package
    capacity-0 capacity-1 - capacity-number)
  (:init
    (road city-loc-0 city-loc-1) (road city-loc-1 city-loc-0)
    (road city-loc-1 city-loc-2) (road city-loc-2 city-loc-1)
    (capacity-predecessor capacity-0 capacity-1)
    (at truck-0 city-loc-0)
    (at truck-1 city-loc-2)
    (capacity truck-0 capacity-1)
    (capacity truck-1 capacity-1)
    (at package-0 city-loc-0))
  (:goal (and (at package-0 city-loc-1) (at truck-1 city-loc-0))))
