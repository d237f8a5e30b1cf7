; the STRIPS domain of trucks-or-problem.pddl (a copy of ../unsupported/domain.pddl)
(define (domain trucks)
  (:requirements :strips :typing)
  (:types truck place)
  (:predicates (at ?t - truck ?p - place) (road ?a ?b - place))
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (not (at ?t ?a)) (at ?t ?b))))
