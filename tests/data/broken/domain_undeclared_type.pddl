(define (domain courier)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (at ?x - place)
               (holding ?x - parcel))
  (:action wait
    :parameters (?p - place)
    :precondition (at ?p)
    :effect (at ?p)))
