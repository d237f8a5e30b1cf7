;; Gold miner (IPC 2008 learning track), typed STRIPS.
;; A robot in a grid mine must get the gold. Hard rock only yields to the laser; soft rock yields to the
;; laser or to a bomb; the laser also destroys gold, so the gold's cell has to be opened with a bomb.
(define (domain goldminer)
  (:requirements :strips :typing)
  (:types loc)

  (:predicates
    (robot-at ?x - loc)                  ; the robot stands on ?x
    (bomb-at ?x - loc)                   ; bombs can be taken at ?x (an unlimited supply)
    (laser-at ?x - loc)                  ; the laser lies on ?x
    (soft-rock-at ?x - loc)              ; ?x is filled with soft rock
    (hard-rock-at ?x - loc)              ; ?x is filled with hard rock
    (gold-at ?x - loc)                   ; the gold is on ?x
    (arm-empty)                          ; the robot holds nothing
    (holds-bomb)                         ; the robot holds a bomb
    (holds-laser)                        ; the robot holds the laser
    (holds-gold)                         ; the robot holds the gold
    (clear ?x - loc)                     ; ?x has no rock: the robot may enter
    (connected ?x - loc ?y - loc))       ; ?x and ?y are neighbouring cells

  ;; Step to a neighbouring cell without rock.
  (:action move
    :parameters (?x - loc ?y - loc)
    :precondition (and (robot-at ?x) (connected ?x ?y) (clear ?y))
    :effect (and (robot-at ?y) (not (robot-at ?x))))

  ;; Take the laser from the robot's cell.
  (:action pickup-laser
    :parameters (?x - loc)
    :precondition (and (robot-at ?x) (laser-at ?x) (arm-empty))
    :effect (and (holds-laser) (not (arm-empty)) (not (laser-at ?x))))

  ;; Take a bomb; the supply at ?x never runs out.
  (:action pickup-bomb
    :parameters (?x - loc)
    :precondition (and (robot-at ?x) (bomb-at ?x) (arm-empty))
    :effect (and (holds-bomb) (not (arm-empty))))

  ;; Leave the laser on the robot's cell.
  (:action putdown-laser
    :parameters (?x - loc)
    :precondition (and (robot-at ?x) (holds-laser))
    :effect (and (laser-at ?x) (arm-empty) (not (holds-laser))))

  ;; Blow up the soft rock of a neighbouring cell; the bomb is used up.
  (:action detonate-bomb
    :parameters (?x - loc ?y - loc)
    :precondition (and (robot-at ?x) (holds-bomb) (connected ?x ?y) (soft-rock-at ?y))
    :effect (and (clear ?y) (arm-empty) (not (holds-bomb)) (not (soft-rock-at ?y))))

  ;; Fire the laser at a neighbouring cell: any rock there is gone, and so is any gold.
  (:action fire-laser
    :parameters (?x - loc ?y - loc)
    :precondition (and (robot-at ?x) (holds-laser) (connected ?x ?y))
    :effect (and (clear ?y) (not (soft-rock-at ?y)) (not (hard-rock-at ?y)) (not (gold-at ?y))))

  ;; Pick up the gold on the robot's cell.
  (:action pick-gold
    :parameters (?x - loc)
    :precondition (and (robot-at ?x) (arm-empty) (gold-at ?x))
    :effect (and (holds-gold) (not (arm-empty)))))
