; Requirements genplan does not need (the domain uses none of their constructs) and action costs.
(define (domain roads-adl)
  (:requirements :adl :typing :conditional-effects :universal-preconditions :existential-preconditions
                 :disjunctive-preconditions :quantified-preconditions :action-costs)
  (:types place)
  (:predicates (at ?p - place) (road ?from ?to - place))
  (:functions (total-cost) - number)
  (:action drive
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to) (increase (total-cost) 1))))
