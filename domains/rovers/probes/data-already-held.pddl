;; probe: a rover already holds an image and a soil analysis, and another camera is already calibrated;
;; the goal also asks for a second image.
(define (problem rovers-probe-data-already-held)
  (:domain rovers)
  (:objects
    general - lander
    colour high_res low_res - mode
    rover0 - rover
    rover0store - store
    waypoint0 waypoint1 waypoint2 - waypoint
    camera0 camera1 - camera
    objective0 objective1 - objective)
  (:init
    (visible waypoint0 waypoint1) (visible waypoint1 waypoint0)
    (visible waypoint1 waypoint2) (visible waypoint2 waypoint1)
    (at_lander general waypoint0)
    (channel_free general)
    (at rover0 waypoint2)
    (available rover0)
    (store_of rover0store rover0)
    (full rover0store)
    (equipped_for_soil_analysis rover0) (equipped_for_imaging rover0)
    (have_soil_analysis rover0 waypoint2)
    (have_image rover0 objective0 colour)
    (on_board camera0 rover0) (on_board camera1 rover0)
    (supports camera0 colour) (supports camera1 low_res)
    (calibration_target camera0 objective0) (calibration_target camera1 objective0)
    (calibrated camera1 rover0)
    (can_traverse rover0 waypoint0 waypoint1) (can_traverse rover0 waypoint1 waypoint0)
    (can_traverse rover0 waypoint1 waypoint2) (can_traverse rover0 waypoint2 waypoint1)
    (visible_from objective0 waypoint0)
    (visible_from objective1 waypoint2))
  (:goal (and (communicated_soil_data waypoint2) (communicated_image_data objective0 colour)
              (communicated_image_data objective1 low_res))))
