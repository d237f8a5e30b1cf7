(define (domain miconic-costumed)
  (:requirements :strips :typing)
  (:types hiker - object station - object)
  (:predicates
    (waits-at ?hiker - hiker ?station - station)
    (heads-for ?hiker - hiker ?station - station)
    (higher-than ?station1 - station ?station2 - station)
    (inside ?hiker - hiker)
    (arrived ?hiker - hiker)
    (car-at ?station - station)
  )
  (:action get-in
    :parameters (?s - station ?h - hiker)
    :precondition (and (car-at ?s) (waits-at ?h ?s))
    :effect (and (inside ?h)))
  (:action get-out
    :parameters (?s - station ?h - hiker)
    :precondition (and (car-at ?s) (heads-for ?h ?s) (inside ?h))
    :effect (and (arrived ?h) (not (inside ?h))))
  (:action ascend
    :parameters (?s1 - station ?s2 - station)
    :precondition (and (car-at ?s1) (higher-than ?s1 ?s2))
    :effect (and (car-at ?s2) (not (car-at ?s1))))
  (:action descend
    :parameters (?s1 - station ?s2 - station)
    :precondition (and (car-at ?s1) (higher-than ?s2 ?s1))
    :effect (and (car-at ?s2) (not (car-at ?s1))))
)
