; a conditional effect inside a universal effect (moved here from ../unsupported when the ADL subset came)
(define (domain lamps)
  (:requirements :strips)
  (:predicates (on ?x) (wired ?x ?y))
  (:action flip
    :parameters (?x)
    :precondition (and)
    :effect (and (on ?x) (forall (?y) (when (wired ?x ?y) (on ?y))))))
