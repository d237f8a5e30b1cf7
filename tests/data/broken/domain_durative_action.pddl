(define (domain courier)
  (:requirements :strips)
  (:predicates (at ?x) (road ?x ?y))
  (:durative-action drive
    :parameters (?from ?to)
    :duration (= ?duration 5)
    :condition (and (at start (at ?from)) (over all (road ?from ?to)))
    :effect (and (at start (not (at ?from))) (at end (at ?to)))))
