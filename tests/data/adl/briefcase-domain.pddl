; Briefcase world: moving the briefcase carries everything inside it (conditional, quantified effects).
(define (domain briefcase)
  (:requirements :adl)
  (:types location portable)
  (:predicates (at-bc ?l - location) (at ?p - portable ?l - location) (in ?p - portable))
  (:action move
    :parameters (?from ?to - location)
    :precondition (and (at-bc ?from) (not (= ?from ?to)))
    :effect (and (at-bc ?to) (not (at-bc ?from))
                 (forall (?p - portable)
                   (when (in ?p) (and (at ?p ?to) (not (at ?p ?from)))))))
  (:action put-in
    :parameters (?p - portable ?l - location)
    :precondition (and (at ?p ?l) (at-bc ?l) (not (in ?p)))
    :effect (in ?p))
  (:action take-out
    :parameters (?p - portable)
    :precondition (in ?p)
    :effect (not (in ?p))))
