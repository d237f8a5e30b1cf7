; a numeric comparison without a :functions section (line 7)
(define (domain fuel2)
  (:requirements :strips)
  (:predicates (at ?p))
  (:action go
    :parameters (?a ?b)
    :precondition (and (at ?a) (>= (distance ?a ?b) 1))
    :effect (and (not (at ?a)) (at ?b))))
