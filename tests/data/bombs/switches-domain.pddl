; A state space that only grows, written for genplan's tests: 24 switches flip independently (2^24 states)
; and nothing makes the goal true, so a search stores state after state until a limit ends it.
(define (domain switches)
  (:requirements :strips :negative-preconditions)
  (:predicates (switch ?s) (on ?s) (finished))
  (:action flip-on
    :parameters (?s)
    :precondition (and (switch ?s) (not (on ?s)))
    :effect (on ?s))
  (:action flip-off
    :parameters (?s)
    :precondition (and (switch ?s) (on ?s))
    :effect (not (on ?s))))
