; a conditional effect inside a universal effect: the outer construct (forall, line 8) is reported
(define (domain lamps)
  (:requirements :strips)
  (:predicates (on ?x) (wired ?x ?y))
  (:action flip
    :parameters (?x)
    :precondition (and)
    :effect (and (on ?x) (forall (?y) (when (wired ?x ?y) (on ?y))))))
