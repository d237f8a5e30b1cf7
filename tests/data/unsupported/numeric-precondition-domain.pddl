; numeric fluents: a comparison in a precondition (line 9); the :functions section is on line 5
(define (domain fuel)
  (:requirements :strips :typing)
  (:types truck place)
  (:functions (fuel ?t - truck))
  (:predicates (at ?t - truck ?p - place))
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (> (fuel ?t) 0))
    :effect (and (not (at ?t ?a)) (at ?t ?b) (decrease (fuel ?t) 1))))
