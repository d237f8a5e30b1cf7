;; probe: the rover's store starts full, so it must drop before it can sample.
(define (problem rovers-probe-store-full)
  (:domain rovers)
  (:objects
    general - lander
    colour high_res low_res - mode
    rover0 - rover
    rover0store - store
    waypoint0 waypoint1 waypoint2 - waypoint
    objective0 - objective)
  (:init
    (visible waypoint0 waypoint1) (visible waypoint1 waypoint0)
    (visible waypoint1 waypoint2) (visible waypoint2 waypoint1)
    (at_soil_sample waypoint2)
    (at_lander general waypoint0)
    (channel_free general)
    (at rover0 waypoint1)
    (available rover0)
    (store_of rover0store rover0)
    (full rover0store)
    (equipped_for_soil_analysis rover0)
    (can_traverse rover0 waypoint0 waypoint1) (can_traverse rover0 waypoint1 waypoint0)
    (can_traverse rover0 waypoint1 waypoint2) (can_traverse rover0 waypoint2 waypoint1)
    (visible_from objective0 waypoint0))
  (:goal (and (communicated_soil_data waypoint2))))
