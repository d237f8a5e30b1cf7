;; Ferry: one ferry with room for a single car moves cars between locations.
;; Untyped, as the classic version: object kinds are the unary facts (car ?c) and (location ?l);
;; (not-eq ?x ?y) holds for every pair of distinct locations.
(define (domain ferry)
  (:requirements :strips)
  (:predicates
    (not-eq ?x ?y)
    (car ?c)
    (location ?l)
    (at-ferry ?l)
    (at ?c ?l)
    (empty-ferry)
    (on ?c))

  ;; The ferry crosses from one location to another.
  (:action sail
    :parameters (?from ?to)
    :precondition (and (location ?from) (location ?to) (not-eq ?from ?to) (at-ferry ?from))
    :effect (and (not (at-ferry ?from)) (at-ferry ?to)))

  ;; A car waiting where the ferry is drives on, if the ferry is empty.
  (:action board
    :parameters (?car ?loc)
    :precondition (and (car ?car) (location ?loc) (at ?car ?loc) (at-ferry ?loc) (empty-ferry))
    :effect (and (not (at ?car ?loc)) (not (empty-ferry)) (on ?car)))

  ;; The car on the ferry drives off at the ferry's location.
  (:action debark
    :parameters (?car ?loc)
    :precondition (and (car ?car) (location ?loc) (on ?car) (at-ferry ?loc))
    :effect (and (not (on ?car)) (at ?car ?loc) (empty-ferry))))
