;; probe: the goal also places a truck and an airplane.
(define (problem logistics-probe-vehicle-goals)
  (:domain logistics)
  (:objects
    city0 city1 - city
    airport0 airport1 - airport
    loc0-1 - location
    truck0 truck1 - truck
    plane0 - airplane
    pkg0 - package)
  (:init
    (in-city airport0 city0) (in-city loc0-1 city0)
    (in-city airport1 city1)
    (at truck0 airport0)
    (at truck1 airport1)
    (at plane0 airport0)
    (at pkg0 loc0-1))
  (:goal (and (at pkg0 airport1) (at truck0 loc0-1) (at plane0 airport0))))
