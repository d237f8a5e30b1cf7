; A parent type that is never declared itself: `place` appears only after '-' in :types. VAL and Fast Downward
; read it as a subtype of object; genplan does too, with a warning (it is often a typo).
(define (domain undeclared-parent-type)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types disc peg - place)
  (:constants left - peg)
  (:predicates (on ?d - disc ?p - place) (clear ?p - place) (smaller ?d - disc ?p - place))
  (:action move
    :parameters (?d - disc ?from - place ?to - place)
    :precondition (and (on ?d ?from) (clear ?d) (clear ?to) (smaller ?d ?to) (not (= ?from ?to)))
    :effect (and (on ?d ?to) (clear ?from) (not (on ?d ?from)) (not (clear ?to)))))
