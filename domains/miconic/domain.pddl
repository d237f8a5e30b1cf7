;; Miconic: an elevator serves passengers (the classic STRIPS version of the IPC 2000 elevator domain).
;; (above ?f1 ?f2) means that floor ?f2 is higher up than floor ?f1.
(define (domain miconic)
  (:requirements :strips :typing)
  (:types passenger floor)
  (:predicates
    (origin ?person - passenger ?floor - floor)
    (destin ?person - passenger ?floor - floor)
    (above ?floor1 - floor ?floor2 - floor)
    (boarded ?person - passenger)
    (served ?person - passenger)
    (lift-at ?floor - floor))

  ;; A passenger waiting at the lift's floor gets in.
  (:action board
    :parameters (?f - floor ?p - passenger)
    :precondition (and (lift-at ?f) (origin ?p ?f))
    :effect (boarded ?p))

  ;; A boarded passenger gets out at their destination floor and is served.
  (:action depart
    :parameters (?f - floor ?p - passenger)
    :precondition (and (lift-at ?f) (destin ?p ?f) (boarded ?p))
    :effect (and (not (boarded ?p)) (served ?p)))

  ;; The lift goes up from ?f1 to a higher floor ?f2.
  (:action up
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f1 ?f2))
    :effect (and (not (lift-at ?f1)) (lift-at ?f2)))

  ;; The lift goes down from ?f1 to a lower floor ?f2.
  (:action down
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f2 ?f1))
    :effect (and (not (lift-at ?f1)) (lift-at ?f2))))
