; Two discs from the left peg to the right one.
(define (problem undeclared-parent-type-1) (:domain undeclared-parent-type)
  (:objects small big - disc middle right - peg)
  (:init (on big left) (on small big) (clear small) (clear middle) (clear right)
         (smaller small big) (smaller small left) (smaller small middle) (smaller small right)
         (smaller big left) (smaller big middle) (smaller big right))
  (:goal (and (on big right) (on small big))))
