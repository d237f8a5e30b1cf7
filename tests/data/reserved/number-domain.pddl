; A type named 'number' (the shape of the IPC-2004 promela domains): Fast Downward reserves the name and VAL
; refuses it too; genplan reads it with a warning and renames it in the files Fast Downward reads.
(define (domain tally)
  (:requirements :strips :typing)
  (:types number counter)
  (:predicates (shows ?c - counter ?n - number) (succ ?a ?b - number))
  (:action increment
    :parameters (?c - counter ?a ?b - number)
    :precondition (and (shows ?c ?a) (succ ?a ?b))
    :effect (and (shows ?c ?b) (not (shows ?c ?a)))))
