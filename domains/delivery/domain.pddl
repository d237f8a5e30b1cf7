;; Newspaper delivery with traps: Silver et al.'s "trapnewspapers" domain (same actions and predicates).
;; The carrier starts at the home base, where the papers are. Only the home base and the houses that want
;; a paper are safe: from an unsafe location the carrier can never move again.
(define (domain delivery)
  (:requirements :strips :typing)
  (:types loc paper)

  (:predicates
    (at ?loc - loc)              ; the carrier is at ?loc
    (isHomeBase ?loc - loc)      ; papers can be picked up at ?loc
    (satisfied ?loc - loc)       ; ?loc has received a paper
    (wantsPaper ?loc - loc)      ; ?loc still wants a paper
    (safe ?loc - loc)            ; the carrier may leave ?loc
    (unpacked ?paper - paper)    ; ?paper is still at the home base
    (carrying ?paper - paper))   ; the carrier holds ?paper

  ;; Take one paper from the pile at the home base.
  (:action pick-up
    :parameters (?paper - paper ?loc - loc)
    :precondition (and (at ?loc) (isHomeBase ?loc) (unpacked ?paper))
    :effect (and (carrying ?paper)
                 (not (unpacked ?paper))))

  ;; Go anywhere, but only away from a safe location.
  (:action move
    :parameters (?from - loc ?to - loc)
    :precondition (and (at ?from) (safe ?from))
    :effect (and (at ?to)
                 (not (at ?from))))

  ;; Hand a carried paper to the current location.
  (:action deliver
    :parameters (?paper - paper ?loc - loc)
    :precondition (and (at ?loc) (carrying ?paper))
    :effect (and (satisfied ?loc)
                 (not (carrying ?paper))
                 (not (wantsPaper ?loc)))))
