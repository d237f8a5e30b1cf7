;; probe: the soil rover cannot traverse to the sample's waypoint (its links do not reach all waypoints),
;; so the other soil rover must do the job.
(define (problem rovers-probe-rover-cannot-reach)
  (:domain rovers)
  (:objects
    general - lander
    colour high_res low_res - mode
    rover0 rover1 - rover
    rover0store rover1store - store
    waypoint0 waypoint1 waypoint2 - waypoint
    objective0 - objective)
  (:init
    (visible waypoint0 waypoint1) (visible waypoint1 waypoint0)
    (visible waypoint1 waypoint2) (visible waypoint2 waypoint1)
    (at_rock_sample waypoint2)
    (at_lander general waypoint1)
    (channel_free general)
    (at rover0 waypoint0)
    (at rover1 waypoint0)
    (available rover0) (available rover1)
    (store_of rover0store rover0) (store_of rover1store rover1)
    (empty rover0store) (empty rover1store)
    (equipped_for_rock_analysis rover0) (equipped_for_rock_analysis rover1)
    (can_traverse rover0 waypoint0 waypoint1) (can_traverse rover0 waypoint1 waypoint0)
    (can_traverse rover1 waypoint0 waypoint1) (can_traverse rover1 waypoint1 waypoint0)
    (can_traverse rover1 waypoint1 waypoint2) (can_traverse rover1 waypoint2 waypoint1)
    (visible_from objective0 waypoint0))
  (:goal (and (communicated_rock_data waypoint2))))
