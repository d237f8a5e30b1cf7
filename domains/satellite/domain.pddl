;; Satellite observation scheduling (IPC 2002, STRIPS version).
(define (domain satellite)
  (:requirements :strips :typing)
  (:types satellite direction instrument mode)

  (:predicates
    (on_board ?i - instrument ?s - satellite)            ; ?i is mounted on ?s
    (supports ?i - instrument ?m - mode)                 ; ?i can take images in mode ?m
    (pointing ?s - satellite ?d - direction)             ; ?s currently points at ?d
    (power_avail ?s - satellite)                         ; ?s has power for one instrument
    (power_on ?i - instrument)                           ; ?i is switched on
    (calibrated ?i - instrument)                         ; ?i is calibrated since it was switched on
    (have_image ?d - direction ?m - mode)                ; an image of ?d in mode ?m exists
    (calibration_target ?i - instrument ?d - direction)) ; ?i calibrates by looking at ?d

  ;; Slew a satellite from one direction to another.
  (:action turn_to
    :parameters (?s - satellite ?d_new - direction ?d_prev - direction)
    :precondition (pointing ?s ?d_prev)
    :effect (and (pointing ?s ?d_new)
                 (not (pointing ?s ?d_prev))))

  ;; Switch an instrument on; this uses the satellite's power and loses any calibration.
  (:action switch_on
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on_board ?i ?s) (power_avail ?s))
    :effect (and (power_on ?i)
                 (not (calibrated ?i))
                 (not (power_avail ?s))))

  ;; Switch an instrument off, which frees the satellite's power.
  (:action switch_off
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on_board ?i ?s) (power_on ?i))
    :effect (and (power_avail ?s)
                 (not (power_on ?i))))

  ;; Calibrate a switched-on instrument while pointing at its calibration target.
  (:action calibrate
    :parameters (?s - satellite ?i - instrument ?d - direction)
    :precondition (and (on_board ?i ?s) (calibration_target ?i ?d)
                       (pointing ?s ?d) (power_on ?i))
    :effect (calibrated ?i))

  ;; Take an image of the pointed-at direction with a calibrated, switched-on instrument.
  (:action take_image
    :parameters (?s - satellite ?d - direction ?i - instrument ?m - mode)
    :precondition (and (calibrated ?i) (on_board ?i ?s) (supports ?i ?m)
                       (power_on ?i) (pointing ?s ?d))
    :effect (have_image ?d ?m)))
