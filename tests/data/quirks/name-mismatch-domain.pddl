; A problem that names another domain (common in collected benchmark sets): a one-line warning, not an error.
(define (domain lights)
  (:requirements :strips)
  (:predicates (lit ?x) (dark ?x))
  (:action light
    :parameters (?x)
    :precondition (dark ?x)
    :effect (and (lit ?x) (not (dark ?x)))))
