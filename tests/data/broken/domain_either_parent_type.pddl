(define (domain courier)
  (:requirements :strips :typing)
  (:types place - object
          truck - (either vehicle place))
  (:predicates (at ?t - truck ?x - place))
  (:action wait
    :parameters (?t - truck ?p - place)
    :precondition (at ?t ?p)
    :effect (at ?t ?p)))
