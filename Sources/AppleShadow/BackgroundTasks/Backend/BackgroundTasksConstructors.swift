#if !canImport(UIKit)
    extension BGTask {
        /// Shadow only: the task object the system passes to a launch handler (BackgroundTasks
        /// creates it itself and gives apps no initializer).
        public convenience init(shadowIdentifier identifier: String) {
            self.init(taskIdentifier: identifier)
        }
    }
#endif
