; A type listed a second time under another parent (the shape of IPC-2006 storage's :types): 'bay' is declared
; under object, then again under 'spot'; VAL and Fast Downward make it a subtype of 'spot', so a crate can be
; set down in a bay.
(define (domain yard)
  (:requirements :strips :typing)
  (:types crane spot bay - object
          dock - spot
          bay crate - spot)
  (:predicates (holding ?c - crane ?x - crate) (free ?c - crane) (on ?x - crate ?s - spot)
               (clear ?s - spot) (reach ?c - crane ?s - spot))
  (:action lift
    :parameters (?c - crane ?x - crate ?s - spot)
    :precondition (and (free ?c) (on ?x ?s) (clear ?x) (reach ?c ?s))
    :effect (and (holding ?c ?x) (clear ?s) (not (on ?x ?s)) (not (free ?c))))
  (:action drop
    :parameters (?c - crane ?x - crate ?s - spot)
    :precondition (and (holding ?c ?x) (clear ?s) (reach ?c ?s))
    :effect (and (on ?x ?s) (free ?c) (not (clear ?s)) (not (holding ?c ?x)))))
