;; Recycling: a robot collects items and sorts each one into a bin that accepts its material.
;; The goal is quantified: every item must end up in some bin accepting one of its materials
;; (a forall over items with an exists over bins and materials inside). The robot holds one item at a
;; time, written as a universal precondition: no item may be held when it picks one up.
(define (domain recycling)
  (:requirements :strips :typing :universal-preconditions :existential-preconditions)
  (:types location item bin material)
  (:predicates
    (robot-at ?l - location)
    (connected ?from ?to - location)
    (at ?i - item ?l - location)
    (bin-at ?b - bin ?l - location)
    (holding ?i - item)
    (made-of ?i - item ?m - material)
    (accepts ?b - bin ?m - material)
    (in ?i - item ?b - bin))

  ;; The robot moves to a connected location.
  (:action move
    :parameters (?from ?to - location)
    :precondition (and (robot-at ?from) (connected ?from ?to))
    :effect (and (robot-at ?to) (not (robot-at ?from))))

  ;; With empty hands, the robot picks up an item lying at its location.
  (:action pick
    :parameters (?i - item ?l - location)
    :precondition (and (robot-at ?l) (at ?i ?l)
                       (forall (?j - item) (not (holding ?j))))
    :effect (and (holding ?i) (not (at ?i ?l))))

  ;; With empty hands, the robot takes an item out of a bin at its location.
  (:action take
    :parameters (?i - item ?b - bin ?l - location)
    :precondition (and (robot-at ?l) (bin-at ?b ?l) (in ?i ?b)
                       (forall (?j - item) (not (holding ?j))))
    :effect (and (holding ?i) (not (in ?i ?b))))

  ;; The robot throws the item it holds into a bin at its location (any bin: sorting is the goal's job).
  (:action deposit
    :parameters (?i - item ?b - bin ?l - location)
    :precondition (and (robot-at ?l) (bin-at ?b ?l) (holding ?i))
    :effect (and (in ?i ?b) (not (holding ?i)))))
