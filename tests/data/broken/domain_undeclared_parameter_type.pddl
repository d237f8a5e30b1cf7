(define (domain courier)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (at ?x - place))
  (:action wait
    :parameters (?p - place
                 ?v - vehicle)
    :precondition (at ?p)
    :effect (at ?p)))
