; Hoist: an Elevators-like domain with action costs written for the held-out ADL suite. Fast and slow
; lifts cost a function of the floors travelled, boarding costs a constant, leaving is free; a lift carries
; one passenger (a negated existential precondition); an express run from the ground floor (a constant) to any
; floor costs what a slow lift would charge for it (a cost function applied to a constant).
(define (domain hoist)
  (:requirements :typing :adl :action-costs)
  (:types lift - object fast slow - lift passenger floor - object)
  (:constants ground - floor)
  (:predicates (lift-at ?l - lift ?f - floor) (at ?p - passenger ?f - floor) (in ?p - passenger ?l - lift)
               (reachable ?l - lift ?f - floor) (next ?f1 ?f2 - floor))
  (:functions (total-cost) - number (fast-cost ?f1 ?f2 - floor) - number (slow-cost ?f1 ?f2 - floor) - number)
  (:action move-fast
    :parameters (?l - fast ?f1 ?f2 - floor)
    :precondition (and (lift-at ?l ?f1) (reachable ?l ?f2) (not (= ?f1 ?f2)))
    :effect (and (not (lift-at ?l ?f1)) (lift-at ?l ?f2) (increase (total-cost) (fast-cost ?f1 ?f2))))
  (:action move-slow
    :parameters (?l - slow ?f1 ?f2 - floor)
    :precondition (and (lift-at ?l ?f1) (or (next ?f1 ?f2) (next ?f2 ?f1)) (reachable ?l ?f2))
    :effect (and (not (lift-at ?l ?f1)) (lift-at ?l ?f2) (increase (total-cost) (slow-cost ?f1 ?f2))))
  (:action express
    :parameters (?l - fast ?f - floor)
    :precondition (and (lift-at ?l ground) (not (= ?f ground)))
    :effect (and (not (lift-at ?l ground)) (lift-at ?l ?f) (increase (total-cost) (slow-cost ground ?f))))
  (:action board
    :parameters (?p - passenger ?l - lift ?f - floor)
    :precondition (and (at ?p ?f) (lift-at ?l ?f) (not (exists (?q - passenger) (in ?q ?l))))
    :effect (and (not (at ?p ?f)) (in ?p ?l) (increase (total-cost) 1)))
  (:action leave
    :parameters (?p - passenger ?l - lift ?f - floor)
    :precondition (and (in ?p ?l) (lift-at ?l ?f))
    :effect (and (not (in ?p ?l)) (at ?p ?f))))
