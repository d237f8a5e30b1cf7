;; Planetary rovers (IPC 2002, STRIPS version), typed.
;; Rovers drive between waypoints, take soil and rock samples and images, and send the data to the lander.
(define (domain rovers)
  (:requirements :strips :typing)
  (:types rover waypoint store camera mode lander objective)

  (:predicates
    (at ?x - rover ?y - waypoint)                          ; rover ?x is at ?y
    (at_lander ?x - lander ?y - waypoint)                  ; the lander stands at ?y
    (can_traverse ?r - rover ?x - waypoint ?y - waypoint)  ; ?r can drive from ?x to ?y
    (equipped_for_soil_analysis ?r - rover)
    (equipped_for_rock_analysis ?r - rover)
    (equipped_for_imaging ?r - rover)
    (empty ?s - store)                                     ; store ?s holds no sample
    (full ?s - store)                                      ; store ?s holds a sample
    (have_rock_analysis ?r - rover ?w - waypoint)          ; ?r has analysed rock from ?w
    (have_soil_analysis ?r - rover ?w - waypoint)          ; ?r has analysed soil from ?w
    (calibrated ?c - camera ?r - rover)                    ; camera ?c on ?r is calibrated
    (supports ?c - camera ?m - mode)                       ; camera ?c takes images in mode ?m
    (available ?r - rover)                                 ; ?r is not busy sending
    (visible ?w - waypoint ?p - waypoint)                  ; ?p can be seen (and reached by radio) from ?w
    (have_image ?r - rover ?o - objective ?m - mode)       ; ?r holds an image of ?o in mode ?m
    (communicated_soil_data ?w - waypoint)                 ; the lander got the soil analysis of ?w
    (communicated_rock_data ?w - waypoint)                 ; the lander got the rock analysis of ?w
    (communicated_image_data ?o - objective ?m - mode)     ; the lander got an image of ?o in mode ?m
    (at_soil_sample ?w - waypoint)                         ; a soil sample can be taken at ?w
    (at_rock_sample ?w - waypoint)                         ; a rock sample can be taken at ?w
    (visible_from ?o - objective ?w - waypoint)            ; objective ?o can be seen from ?w
    (store_of ?s - store ?r - rover)                       ; ?s is the store of ?r
    (calibration_target ?i - camera ?o - objective)        ; camera ?i calibrates on objective ?o
    (on_board ?i - camera ?r - rover)                      ; camera ?i is mounted on ?r
    (channel_free ?l - lander))                            ; the lander can receive

  ;; Drive to a waypoint that the rover can traverse to and that is visible from here.
  (:action navigate
    :parameters (?x - rover ?y - waypoint ?z - waypoint)
    :precondition (and (can_traverse ?x ?y ?z) (available ?x) (at ?x ?y) (visible ?y ?z))
    :effect (and (at ?x ?z) (not (at ?x ?y))))

  ;; Take and analyse the soil sample of the rover's waypoint into its empty store.
  (:action sample_soil
    :parameters (?x - rover ?s - store ?p - waypoint)
    :precondition (and (at ?x ?p) (at_soil_sample ?p) (equipped_for_soil_analysis ?x)
                       (store_of ?s ?x) (empty ?s))
    :effect (and (full ?s) (have_soil_analysis ?x ?p) (not (empty ?s)) (not (at_soil_sample ?p))))

  ;; Take and analyse the rock sample of the rover's waypoint into its empty store.
  (:action sample_rock
    :parameters (?x - rover ?s - store ?p - waypoint)
    :precondition (and (at ?x ?p) (at_rock_sample ?p) (equipped_for_rock_analysis ?x)
                       (store_of ?s ?x) (empty ?s))
    :effect (and (full ?s) (have_rock_analysis ?x ?p) (not (empty ?s)) (not (at_rock_sample ?p))))

  ;; Empty the rover's full store (the analysis is kept).
  (:action drop
    :parameters (?x - rover ?y - store)
    :precondition (and (store_of ?y ?x) (full ?y))
    :effect (and (empty ?y) (not (full ?y))))

  ;; Calibrate a camera by looking at its calibration target from the rover's waypoint.
  (:action calibrate
    :parameters (?r - rover ?i - camera ?t - objective ?w - waypoint)
    :precondition (and (equipped_for_imaging ?r) (calibration_target ?i ?t) (at ?r ?w)
                       (visible_from ?t ?w) (on_board ?i ?r))
    :effect (calibrated ?i ?r))

  ;; Take an image of an objective in a mode of the calibrated camera; the camera needs calibrating again.
  (:action take_image
    :parameters (?r - rover ?p - waypoint ?o - objective ?i - camera ?m - mode)
    :precondition (and (calibrated ?i ?r) (on_board ?i ?r) (equipped_for_imaging ?r) (supports ?i ?m)
                       (visible_from ?o ?p) (at ?r ?p))
    :effect (and (have_image ?r ?o ?m) (not (calibrated ?i ?r))))

  ;; Send a soil analysis to the lander, which must be visible from the rover's waypoint ?x.
  ;; (As in the original, the rover and the channel are taken and released within the action.)
  (:action communicate_soil_data
    :parameters (?r - rover ?l - lander ?p - waypoint ?x - waypoint ?y - waypoint)
    :precondition (and (at ?r ?x) (at_lander ?l ?y) (have_soil_analysis ?r ?p) (visible ?x ?y)
                       (available ?r) (channel_free ?l))
    :effect (and (not (available ?r)) (not (channel_free ?l)) (channel_free ?l)
                 (communicated_soil_data ?p) (available ?r)))

  ;; Send a rock analysis to the lander.
  (:action communicate_rock_data
    :parameters (?r - rover ?l - lander ?p - waypoint ?x - waypoint ?y - waypoint)
    :precondition (and (at ?r ?x) (at_lander ?l ?y) (have_rock_analysis ?r ?p) (visible ?x ?y)
                       (available ?r) (channel_free ?l))
    :effect (and (not (available ?r)) (not (channel_free ?l)) (channel_free ?l)
                 (communicated_rock_data ?p) (available ?r)))

  ;; Send an image to the lander.
  (:action communicate_image_data
    :parameters (?r - rover ?l - lander ?o - objective ?m - mode ?x - waypoint ?y - waypoint)
    :precondition (and (at ?r ?x) (at_lander ?l ?y) (have_image ?r ?o ?m) (visible ?x ?y)
                       (available ?r) (channel_free ?l))
    :effect (and (not (available ?r)) (not (channel_free ?l)) (channel_free ?l)
                 (communicated_image_data ?o ?m) (available ?r))))
