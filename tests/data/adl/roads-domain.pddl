; Roads with lengths: action costs from a cost function and a constant cost.
(define (domain roads)
  (:requirements :typing :action-costs)
  (:types place)
  (:predicates (at ?p - place) (road ?a ?b - place) (paid))
  (:functions (total-cost) - number (length ?a ?b - place) - number)
  (:action drive
    :parameters (?a ?b - place)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b) (increase (total-cost) (length ?a ?b))))
  (:action pay-toll
    :parameters ()
    :precondition (not (paid))
    :effect (and (paid) (increase (total-cost) 1))))
