;; Briefcase: one briefcase travels between locations; whatever is inside travels with it.
;; Moving the briefcase has a conditional effect for every portable object: if the object is in the
;; briefcase, its location changes along. Action and predicate names are those of the classic briefcase
;; world (move, put-in, take-out; at, in, is-at).
(define (domain briefcase)
  (:requirements :strips :typing :negative-preconditions :conditional-effects)
  (:types location portable)
  (:predicates
    (at ?x - portable ?l - location)
    (in ?x - portable)
    (is-at ?l - location))

  ;; The briefcase goes to another location and takes along every object inside it.
  (:action move
    :parameters (?from ?to - location)
    :precondition (and (is-at ?from) (not (is-at ?to)))
    :effect (and (is-at ?to) (not (is-at ?from))
                 (forall (?x - portable)
                   (when (in ?x)
                     (and (at ?x ?to) (not (at ?x ?from)))))))

  ;; An object lying where the briefcase is goes into the briefcase.
  (:action put-in
    :parameters (?x - portable ?l - location)
    :precondition (and (is-at ?l) (at ?x ?l) (not (in ?x)))
    :effect (in ?x))

  ;; An object in the briefcase is taken out; it stays at the briefcase's location.
  (:action take-out
    :parameters (?x - portable)
    :precondition (in ?x)
    :effect (not (in ?x))))
