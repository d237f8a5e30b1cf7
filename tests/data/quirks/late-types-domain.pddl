; Types used before they are declared: a parent declared after its subtypes, sections in an unusual order.
(define (domain late-types)
  (:requirements :typing :strips)
  (:predicates (at ?v - vehicle ?p - place) (road ?a ?b - place))
  (:types truck - vehicle
          vehicle place)
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (not (at ?t ?a)) (at ?t ?b))))
